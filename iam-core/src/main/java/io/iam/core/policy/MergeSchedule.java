package io.iam.core.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Runs a stack policy in a host engine (HBase) the way the cost model runs it: the policy decides
 * once after <em>every</em> flush, in flush order, on the stack as it is once every merge it decided
 * before is done, whether or not the host has finished those merges yet. Each decision becomes a
 * scheduled merge; the host runs the scheduled merges whose inputs exist and are not being merged,
 * oldest first, and may run two at once when they are disjoint.
 *
 * <p>Why: a host merges while it flushes. A policy asked only when the host is idle (the {@link
 * FlushLedger}'s rule) never decides for the flushes that land during a merge, and decides later on
 * a stack the model never has. In HBase at 1,000 flushes of 1 MiB, binomial k = 6 made 206 merges
 * that way where the model makes 534, and wrote 7.0 times its flushed bytes where the simulator
 * writes 6.1 for the same flushes; with the schedule, within 1% of it.
 *
 * <p><b>The model's stack.</b> The schedule keeps the stack the model has: slots, oldest first, each
 * either a host component or the output of a scheduled merge not yet done. A new host component
 * without merge inputs is a flush: it becomes a slot, and the policy decides on the model's stack.
 * A new component whose recorded inputs include every input of a scheduled merge, all gone now, is
 * that merge's output. Anything else (a merge the host chose itself, a component gone without an
 * output, a store reopened) makes the schedule start over from the host's components as they are,
 * counting their flushes as {@link FlushLedger} does, with nothing scheduled, and the policy decides
 * once on that stack.
 *
 * <p>Deciding is pure: this class only keeps books; the host does every merge. Thread-safe: one
 * schedule per store, every method synchronized.
 */
public final class MergeSchedule {

  /** A component of the model's stack: a host component, or the output of a scheduled merge. */
  private static final class Slot {
    final long firstFlush;
    final long lastFlush;
    long sizeBytes;
    /** The host component's name, or null while the merge that writes it is scheduled. */
    String name;

    Slot(String name, long firstFlush, long lastFlush, long sizeBytes) {
      this.name = name;
      this.firstFlush = firstFlush;
      this.lastFlush = lastFlush;
      this.sizeBytes = sizeBytes;
    }
  }

  /** A merge the policy decided and the host has not done yet. */
  private record Job(List<Slot> inputs, Slot output) {
    boolean ready() {
      return inputs.stream().allMatch(s -> s.name != null);
    }
  }

  private final FlushLedger counter;
  private final List<Slot> stack = new ArrayList<>();
  private final List<Job> jobs = new ArrayList<>();
  /** Host components the schedule knows, by name: the stack's and the scheduled merges' inputs. */
  private final Map<String, Slot> known = new HashMap<>();
  private boolean started;
  private long restarts;
  private long decisions;
  private String why = "";

  /** @param fallbackUnitBytes the flush size to assume when starting over ({@link FlushLedger}) */
  public MergeSchedule(long fallbackUnitBytes) {
    this.counter = new FlushLedger(fallbackUnitBytes);
  }

  /**
   * The oldest scheduled merge that can run now on {@code files} (oldest first): every input exists
   * and none is being merged. Brings the schedule up to date with {@code files} first.
   *
   * @return indexes into {@code files}, or {@link MergePlan#none()}
   */
  public synchronized MergePlan next(MergePolicy policy, List<StoredComponent> files) {
    observe(policy, files);
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < files.size(); i++) {
      index.put(files.get(i).name(), i);
    }
    for (Job job : jobs) {
      if (!job.ready()) {
        continue;
      }
      int from = index.getOrDefault(job.inputs().get(0).name, -1);
      boolean runnable = from >= 0;
      for (int j = 0; runnable && j < job.inputs().size(); j++) {
        int at = from + j;
        runnable = at < files.size() && files.get(at).name().equals(job.inputs().get(j).name)
            && !files.get(at).merging();
      }
      if (runnable) {
        return MergePlan.merge(from, from + job.inputs().size() - 1);
      }
    }
    return MergePlan.none();
  }

  /** The policy's decision on {@code files} as they are, for a merge a user asked for. */
  public synchronized MergePlan decideNow(MergePolicy policy, List<StoredComponent> files) {
    observe(policy, files);
    StackSnapshot snapshot = counter.snapshot(files);
    return snapshot.size() == 0 || snapshot.anyMerging() ? MergePlan.none() : policy.plan(snapshot);
  }

  /** Scheduled merges not done yet. */
  public synchronized int scheduled() {
    return jobs.size();
  }

  /** How many times the schedule started over from the host's components (its first look not counted). */
  public synchronized long restarts() {
    return restarts;
  }

  /** Why the schedule last started over; empty if it never did. */
  public synchronized String lastRestart() {
    return why;
  }

  /** How many times the policy decided (once per flush, and once per start over). */
  public synchronized long decisions() {
    return decisions;
  }

  /** The model's stack now: every scheduled merge done, not merging. */
  public synchronized StackSnapshot modelStack() {
    return snapshotOfStack();
  }

  private void observe(MergePolicy policy, List<StoredComponent> files) {
    StackSnapshot counted = counter.snapshot(files);
    if (!started) {
      // The store's first look: its files are what an earlier life left, not flushes to replay.
      restart(policy, files, counted);
      return;
    }
    Map<String, StoredComponent> byName = new HashMap<>();
    files.forEach(f -> byName.put(f.name(), f));
    if (!bindFinishedMerges(files, byName)) {
      why = "a merge's inputs went without its output";
      restart(policy, files, counted);
      return;
    }
    for (Slot s : known.values()) {
      if (!byName.containsKey(s.name)) {
        why = s.name + " went, not as the input of a scheduled merge";
        restart(policy, files, counted);
        return;
      }
    }
    for (int i = 0; i < files.size(); i++) {
      StoredComponent f = files.get(i);
      if (known.containsKey(f.name())) {
        continue;
      }
      Component c = counted.get(i);
      Slot top = stack.isEmpty() ? null : stack.get(stack.size() - 1);
      if (!f.mergedFrom().isEmpty() || (top != null && c.firstFlush() <= top.lastFlush)) {
        why = f.mergedFrom().isEmpty() ? f.name() + " is older than the newest flush" : f.name() + " is a merge not scheduled";
        restart(policy, files, counted);
        return;
      }
      Slot flushed = new Slot(f.name(), c.firstFlush(), c.lastFlush(), f.sizeBytes());
      stack.add(flushed);
      known.put(f.name(), flushed);
      decide(policy);
    }
  }

  /**
   * Binds each scheduled merge whose inputs are all gone to the new component that names them as
   * its inputs; false if one has no such component, or lost only some of its inputs.
   */
  private boolean bindFinishedMerges(List<StoredComponent> files, Map<String, StoredComponent> byName) {
    for (var it = jobs.iterator(); it.hasNext(); ) {
      Job job = it.next();
      if (!job.ready()) {
        continue;
      }
      long gone = job.inputs().stream().filter(s -> !byName.containsKey(s.name)).count();
      if (gone == 0) {
        continue;
      }
      if (gone < job.inputs().size()) {
        return false;
      }
      Set<String> inputs = new HashSet<>();
      job.inputs().forEach(s -> inputs.add(s.name));
      StoredComponent output = null;
      for (StoredComponent f : files) {
        if (!known.containsKey(f.name()) && f.mergedFrom().containsAll(inputs)) {
          output = f;
          break;
        }
      }
      if (output == null) {
        return false;
      }
      inputs.forEach(known::remove);
      job.output().name = output.name();
      job.output().sizeBytes = output.sizeBytes();
      known.put(output.name(), job.output());
      it.remove();
    }
    return true;
  }

  /** Asks the policy about the model's stack after its newest flush, and schedules what it decides. */
  private void decide(MergePolicy policy) {
    decisions++;
    MergePlan plan = policy.plan(snapshotOfStack());
    if (plan.isNone()) {
      return;
    }
    List<Slot> inputs = new ArrayList<>(stack.subList(plan.from(), plan.to() + 1));
    long size = inputs.stream().mapToLong(s -> s.sizeBytes).sum();
    Slot output = new Slot(null, inputs.get(0).firstFlush, inputs.get(inputs.size() - 1).lastFlush, size);
    stack.subList(plan.from(), plan.to() + 1).clear();
    stack.add(plan.from(), output);
    jobs.add(new Job(inputs, output));
  }

  private StackSnapshot snapshotOfStack() {
    List<Component> components = new ArrayList<>(stack.size());
    for (int i = 0; i < stack.size(); i++) {
      Slot s = stack.get(i);
      components.add(new Component(i, s.sizeBytes, s.firstFlush, s.lastFlush, 1, false));
    }
    long flushes = stack.isEmpty() ? 0 : stack.get(stack.size() - 1).lastFlush;
    return StackSnapshot.of(components, flushes);
  }

  /**
   * Starts over from the host's components as they are, and lets the policy decide once on them (a
   * reopened store may be over its bound with no flush to come).
   */
  private void restart(MergePolicy policy, List<StoredComponent> files, StackSnapshot counted) {
    if (started) {
      restarts++;
    }
    started = true;
    stack.clear();
    jobs.clear();
    known.clear();
    for (int i = 0; i < files.size(); i++) {
      Component c = counted.get(i);
      Slot s = new Slot(files.get(i).name(), c.firstFlush(), c.lastFlush(), files.get(i).sizeBytes());
      stack.add(s);
      known.put(s.name, s);
    }
    if (!stack.isEmpty()) {
      decide(policy);
    }
  }
}
