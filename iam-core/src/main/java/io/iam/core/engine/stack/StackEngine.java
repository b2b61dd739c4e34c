package io.iam.core.engine.stack;

import io.iam.core.iter.MergingIterator;
import com.google.common.util.concurrent.RateLimiter;
import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.memtable.MemTable;
import io.iam.core.cost.RunMerge;
import io.iam.core.policy.Component;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicies;
import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.TableCache;
import io.iam.core.engine.seam.TableWriter;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * tree=stack (docs/stack.md): the store's runs form a stack on level 0, one file each, and one of
 * the kernel's pure stack policies ({@link MergePolicies}: leveling, tiering, binomial, …) shapes
 * it. The executor is the only part with I/O:
 *
 * <pre>
 *  memtable ─flush─▶ snapshot = runs (oldest first) + the memtable as flush n ─▶ policy ─▶ plan
 *     plan takes the memtable: merge it with runs from..n−1, write ONE run   (flush-merge)
 *     plan takes older runs only: write the memtable as a run, then merge from..to
 *     no plan: write the memtable as a run
 * </pre>
 *
 * <p>A flush merged with runs is written once, where the result stays, which is what the Min-Max
 * paper's formulas (1)–(6) and the bounded-depth paper's cost model count. Each run's flush range
 * is in the manifest ({@link VersionEdit#flushRange}), so flush-counting policies resume exactly
 * after a restart. Everything runs on the store's flush thread, one flush at a time; a merge that
 * takes the whole stack therefore holds up the next flush (writers stall once the immutable
 * memtables are full), as in the paper's model.
 *
 * <p>Tombstones are dropped only by a merge that takes the oldest run.
 */
public final class StackEngine {

  /** How many recorded flushes {@link #history()} keeps (the oldest are forgotten). */
  static final int HISTORY = 10_000;

  private final VersionSet versions;
  private final TableCache tables;
  private final TableWriter writer;
  private final StoreCounters stats;
  private final InternalKeyComparator cmp;
  private final MergePolicy policy;
  private final Deque<RunMerge> history = new ArrayDeque<>();

  StackEngine(StoreParts parts, MergePolicy policy) {
    this.versions = parts.versions();
    this.tables = parts.tables();
    this.writer = parts.writer();
    this.stats = parts.stats();
    this.cmp = parts.cmp();
    this.policy = policy;
  }

  /** The policy that shapes the stack. */
  public MergePolicy policy() {
    return policy;
  }

  /**
   * Flushes {@code table} as the policy decides and installs the result with {@code nextLog} as
   * the oldest log still needed. On failure nothing is installed and the same memtable can be
   * flushed again.
   */
  void flush(MemTable table, long nextLog, long smallestSnapshot, LongSupplier newOutputNumber, List<Long> outputs,
      RateLimiter limiter) throws IOException {
    Version v = versions.current();
    List<FileMeta> runs = new ArrayList<>(v.files(0));
    java.util.Collections.reverse(runs); // level 0 lists the newest first; the stack is oldest first
    List<Component> components = new ArrayList<>();
    long lastFlush = 0;
    for (FileMeta f : runs) {
      VersionEdit.FlushRange r = v.flushRange(f.fileNumber());
      if (r == null) {
        throw new IOException("run #" + f.fileNumber() + " of a stack store has no flush range in the manifest");
      }
      components.add(new Component(f.fileNumber(), f.fileSize(), r.first(), r.last(), 1, false));
      lastFlush = r.last();
    }
    long flush = lastFlush + 1;
    components.add(Component.flushed(0, table.approximateBytes(), flush));
    MergePlan plan = policy.plan(StackSnapshot.of(components, flush));
    int newest = runs.size();
    boolean takesFlush = !plan.isNone() && plan.to() == newest;

    VersionEdit edit = new VersionEdit().logNumber(nextLog);
    List<RunMerge> done = new ArrayList<>();
    if (takesFlush) {
      List<FileMeta> inputs = runs.subList(plan.from(), newest);
      FileMeta out = merge(table, inputs, plan.from() == 0, smallestSnapshot, newOutputNumber, outputs, limiter);
      long first = v.flushRange(inputs.get(0).fileNumber()).first();
      record(edit, inputs, out, first, flush, done, v);
    } else {
      FileMeta out = write(TableCache.iterator(table), smallestSnapshot, false, newOutputNumber, outputs, limiter);
      record(edit, List.of(), out, flush, flush, done, v);
      if (!plan.isNone()) {
        List<FileMeta> inputs = runs.subList(plan.from(), plan.to() + 1);
        FileMeta merged = merge(null, inputs, plan.from() == 0, smallestSnapshot, newOutputNumber, outputs, limiter);
        record(edit, inputs, merged, v.flushRange(inputs.get(0).fileNumber()).first(),
            v.flushRange(inputs.get(inputs.size() - 1).fileNumber()).last(), done, v);
      }
    }
    versions.logAndApply(edit);
    synchronized (history) {
      for (RunMerge m : done) {
        if (history.size() == HISTORY) {
          history.removeFirst();
        }
        history.addLast(m);
      }
    }
  }

  /** Merges {@code table} (null for none) with {@code inputs} into one new run. */
  private FileMeta merge(MemTable table, List<FileMeta> inputs, boolean bottommost, long smallestSnapshot,
      LongSupplier newOutputNumber, List<Long> outputs, RateLimiter limiter) throws IOException {
    List<InternalIterator> children = new ArrayList<>();
    if (table != null) {
      children.add(TableCache.iterator(table));
    }
    for (FileMeta f : inputs) {
      children.add(tables.uncachedIterator(f));
    }
    try (MergingIterator merged = new MergingIterator(cmp, children)) {
      return write(merged, smallestSnapshot, bottommost, newOutputNumber, outputs, limiter);
    }
  }

  private FileMeta write(InternalIterator source, long smallestSnapshot, boolean bottommost, LongSupplier newOutputNumber,
      List<Long> outputs, RateLimiter limiter) throws IOException {
    long number = newOutputNumber.getAsLong();
    outputs.add(number);
    return writer.write(number, source, smallestSnapshot, bottommost, limiter);
  }

  /** Adds one step to the edit, the statistics and the record (an output of null: everything was dropped). */
  private void record(VersionEdit edit, List<FileMeta> inputs, FileMeta out, long first, long last, List<RunMerge> done,
      Version v) {
    long read = 0;
    long readEntries = 0;
    long[] inFlushes = new long[inputs.size()];
    long[] inEntries = new long[inputs.size()];
    for (int i = 0; i < inputs.size(); i++) {
      FileMeta f = inputs.get(i);
      edit.remove(0, f.fileNumber());
      read += f.fileSize();
      readEntries += f.entries();
      inFlushes[i] = v.flushRange(f.fileNumber()).flushes();
      inEntries[i] = f.entries();
    }
    long written = out == null ? 0 : out.fileSize();
    long writtenEntries = out == null ? 0 : out.entries();
    if (out != null) {
      edit.add(0, out);
      edit.flushRange(out.fileNumber(), first, last);
    }
    if (inputs.isEmpty()) {
      stats.flushBytes.add(written);
    } else {
      stats.compacted(0, read, written);
      stats.compactions.increment();
      stats.stackMerges.increment();
      stats.stackRunsMerged.add(inputs.size());
      stats.stackEntriesRead.add(readEntries);
    }
    stats.stackEntriesWritten.add(writtenEntries);
    done.add(new RunMerge(inFlushes, inEntries, last - first + 1, writtenEntries));
  }

  /** The most flushes one run of the current version holds (0 if there are no runs). */
  public long largestRunFlushes() {
    Version v = versions.current();
    return v.files(0).stream().map(f -> v.flushRange(f.fileNumber())).filter(java.util.Objects::nonNull)
        .mapToLong(VersionEdit.FlushRange::flushes).max().orElse(0);
  }

  /** What the last {@link #HISTORY} steps did, oldest first: for tests, benchmarks and pictures. */
  List<RunMerge> history() {
    synchronized (history) {
      return List.copyOf(history);
    }
  }
}
