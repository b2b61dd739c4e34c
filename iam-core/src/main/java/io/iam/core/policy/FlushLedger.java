package io.iam.core.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a host engine's store (HBase store files, AsterixDB disk components) into the kernel's
 * {@link StackSnapshot} and asks the policy once per flush, as the kernel's contract says ({@link
 * MergePolicy}: "asked once after every flush"). Adapters translate their components into {@link
 * StoredComponent}s and nothing more; this is the one place that keeps the books.
 *
 * <p><b>Flush counts.</b> The static policies (MinLatency, Binomial) decide from how many flushes a
 * store has seen. A host that records it for each component (AsterixDB) says so, and the ledger
 * takes its word; for a host that does not (HBase) the ledger counts them: a new component without merge
 * inputs is one flush (an HBase bulk load counts as one too); a merge's output holds the flushes of
 * its inputs, which the host names. While the store stays open the counts are exact. Components the
 * ledger has never seen (right after the store opens) whose inputs it cannot know are estimated as
 * {@code round(size / unit)} flushes, where the unit is the mean size of the store's flushed
 * components, or the host's flush size when there are none: after a reopen a static policy resumes
 * near, not exactly at, its schedule.
 *
 * <p><b>Once per flush.</b> Hosts ask after flushes, after merges and from periodic checkers. The
 * ledger lets the policy decide once for each flush count; while any component is being merged it
 * answers "nothing" without using up the decision, so the policy decides when the merge is over
 * (the kernel's policies would answer "nothing" then anyway).
 *
 * <p>Thread-safe: one ledger per store, every method synchronized.
 */
public final class FlushLedger {

  private final long fallbackUnitBytes;
  /** Flushes held by each file of the last snapshot, by name. */
  private Map<String, Long> flushes = new HashMap<>();
  /** The flush count of the last committed decision, or -1. */
  private long decidedAt = -1;

  /**
   * @param fallbackUnitBytes the size of one flush to assume when estimating and no flushed
   *     component is at hand (for example HBase's memstore flush size)
   */
  public FlushLedger(long fallbackUnitBytes) {
    this.fallbackUnitBytes = Math.max(1, fallbackUnitBytes);
  }

  /**
   * The snapshot of {@code files}, which must be ordered oldest first (HBase: by sequence id, as
   * its store file manager keeps them). Updates the ledger with the components that appeared or
   * went away.
   */
  public synchronized StackSnapshot snapshot(List<StoredComponent> files) {
    Map<String, Long> next = new HashMap<>();
    Set<String> current = new HashSet<>();
    files.forEach(f -> current.add(f.name()));
    long unit = unitBytes(files);
    for (StoredComponent f : files) {
      Long known = flushes.get(f.name());
      next.put(f.name(), known != null ? known : countNew(f, current, unit));
    }
    flushes = next;
    List<Component> components = new ArrayList<>(files.size());
    long total = 0;
    for (int i = 0; i < files.size(); i++) {
      StoredComponent f = files.get(i);
      long n = next.get(f.name());
      components.add(new Component(i, f.sizeBytes(), total + 1, total + n, 1, f.merging()));
      total += n;
    }
    return StackSnapshot.of(components, total);
  }

  /**
   * Asks {@code policy} about {@code files} (oldest first), unless it has already decided for this
   * flush count.
   *
   * @param commit whether this is a real selection (true) or the host only asking whether a merge
   *     is needed (false: the decision stays to be made)
   * @param explicit a user asked for the compaction: decide even if this flush was decided on
   * @return the plan, with indexes into {@code files}; {@link MergePlan#none()} when the policy
   *     wants nothing, a component is being merged, or this flush count was decided already
   */
  public synchronized MergePlan decide(
      MergePolicy policy, List<StoredComponent> files, boolean commit, boolean explicit) {
    StackSnapshot snapshot = snapshot(files);
    if (snapshot.size() == 0 || snapshot.anyMerging()
        || (!explicit && snapshot.flushCount() == decidedAt)) {
      return MergePlan.none();
    }
    MergePlan plan = policy.plan(snapshot);
    if (commit) {
      decidedAt = snapshot.flushCount();
    }
    return plan;
  }

  /** Flushes of a file the ledger has not seen before. */
  private long countNew(StoredComponent f, Set<String> current, long unit) {
    if (f.flushes() > 0) {
      return f.flushes();
    }
    if (f.mergedFrom().isEmpty()) {
      return 1;
    }
    long sum = 0;
    boolean found = false;
    for (String input : f.mergedFrom()) {
      Long n = flushes.get(input);
      // A host may also name inputs' inputs (HBase lists those not archived yet); only components
      // of the last snapshot that are gone now were this merge's inputs.
      if (n != null && !current.contains(input)) {
        sum += n;
        found = true;
      }
    }
    return found ? sum : Math.max(1, Math.round((double) f.sizeBytes() / unit));
  }

  private long unitBytes(List<StoredComponent> files) {
    long sum = 0;
    int n = 0;
    for (StoredComponent f : files) {
      if (f.mergedFrom().isEmpty()) {
        sum += f.sizeBytes();
        n++;
      }
    }
    return n == 0 ? fallbackUnitBytes : Math.max(1, sum / n);
  }
}
