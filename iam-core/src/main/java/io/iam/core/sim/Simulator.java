package io.iam.core.sim;

import io.iam.core.policy.Component;
import io.iam.core.policy.MergePlan;
import io.iam.core.policy.MergePolicy;
import io.iam.core.policy.StackSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * The bounded-depth paper's cost model (Section IV.A, Problem 1) as a program: flushes of given
 * lengths arrive one at a time; after each, the policy sees the stack (with the flush as its
 * newest component) and may merge one contiguous run of components; a component's length is the
 * sum of what it holds (or, for keyed streams, its distinct keys × record size). Write
 * amplification is bytes written ÷ bytes flushed.
 *
 * <p>Every plan is checked: a merge must be contiguous, in range, and take at least two
 * components; a policy that breaks this fails the run with {@link IllegalStateException}.
 *
 * <p>A run starts from an empty store, or from the components a store holds ({@link #from}): a
 * host's after a restart, say, to predict what its policy does next.
 *
 * <p>A simulator instance runs one simulation at a time; use one per thread.
 */
public final class Simulator {

  /** How often, in flushes, the progress callback is told of progress. */
  public static final int PROGRESS_STEP = 1 << 12;

  private final MergePolicy policy;
  private final FlushStream stream;
  private final Accounting accounting;
  private final long every;
  private final LongConsumer progress;
  private DecisionObserver observer = (snapshot, plan) -> {};

  private Component[] stack = new Component[16];
  private int[][] keys = new int[16][];
  private int size;
  /** The components the next run starts from, oldest first. */
  private List<Component> initial = List.of();

  /**
   * @param every record a series point every {@code every} flushes (and after the last)
   * @param progress told the number of flushes done since it was last told, every {@link
   *     #PROGRESS_STEP} flushes and at the end; may be {@code null}
   */
  public Simulator(MergePolicy policy, FlushStream stream, Accounting accounting, long every, LongConsumer progress) {
    if (every < 1) {
      throw new IllegalArgumentException("series interval must be >= 1: " + every);
    }
    this.policy = policy;
    this.stream = stream;
    this.accounting = accounting;
    this.every = every;
    this.progress = progress == null ? n -> {} : progress;
  }

  /** Shows every decision of the next run to {@code observer}. Returns this simulator. */
  public Simulator observe(DecisionObserver observer) {
    this.observer = observer;
    return this;
  }

  /**
   * Starts the next run from {@code components}, oldest first, which hold flushes 1 to the newest
   * one's {@code lastFlush} (a store's components, as {@link io.iam.core.policy.FlushLedger} numbers
   * them); the run's flushes come after those. Its figures count only the run's own flushes and
   * merges, and its component counts include the components it started from. Not for keyed streams,
   * whose components carry keys. Returns this simulator.
   *
   * @throws IllegalArgumentException if the components are not oldest first with disjoint flush
   *     ranges, or the stream is keyed
   */
  public Simulator from(List<Component> components) {
    if (!components.isEmpty() && stream.keyed()) {
      throw new IllegalArgumentException("a keyed stream's run starts from an empty store");
    }
    StackSnapshot.of(components, components.isEmpty() ? 0 : components.get(components.size() - 1).lastFlush());
    this.initial = List.copyOf(components);
    return this;
  }

  /** Runs {@code flushes} flushes through the policy. */
  public SimulationResult run(long flushes) {
    if (flushes < 1) {
      throw new IllegalArgumentException("simulate at least one flush: " + flushes);
    }
    long start = System.nanoTime();
    boolean keyed = stream.keyed();
    Arrays.fill(stack, null);
    size = 0;
    initial.forEach(c -> push(c, null));
    long before = initial.isEmpty() ? 0 : initial.get(initial.size() - 1).lastFlush();
    long flushed = 0;
    long written = 0;
    long merges = 0;
    long componentSum = 0;
    int maxComponents = 0;
    long reported = 0;
    List<SeriesPoint> series = new ArrayList<>();
    for (long t = 1; t <= flushes; t++) {
      long length = stream.nextLength();
      flushed += length;
      long flush = before + t;
      push(Component.flushed(flush, length, flush), keyed ? stream.lastKeys() : null);
      StackSnapshot snapshot = StackSnapshot.of(stack, size, flush);
      MergePlan plan = policy.plan(snapshot);
      observer.decided(snapshot, plan);
      if (plan.isNone()) {
        written += length;
      } else {
        check(plan, flush);
        boolean takesFlush = plan.to() == size - 1;
        long output = merge(plan.from(), plan.to(), keyed);
        written += (takesFlush && accounting == Accounting.MODEL) ? output : length + output;
        merges++;
      }
      componentSum += size;
      maxComponents = Math.max(maxComponents, size);
      if (t % every == 0 || t == flushes) {
        series.add(new SeriesPoint(
            t, (double) written / flushed, size, (double) componentSum / t, maxComponents, merges,
            flushed, written));
      }
      if (t % PROGRESS_STEP == 0 || t == flushes) {
        progress.accept(t - reported);
        reported = t;
      }
    }
    return new SimulationResult(
        policy.name(),
        policy.options().asStrings(),
        stream.describe(),
        accounting,
        flushes,
        flushed,
        written,
        merges,
        (double) componentSum / flushes,
        maxComponents,
        List.copyOf(series),
        System.nanoTime() - start);
  }

  private void push(Component c, int[] flushKeys) {
    if (size == stack.length) {
      stack = Arrays.copyOf(stack, size * 2);
      keys = Arrays.copyOf(keys, size * 2);
    }
    stack[size] = c;
    keys[size] = flushKeys;
    size++;
  }

  private void check(MergePlan plan, long t) {
    if (plan.from() < 0 || plan.to() >= size || plan.width() < 2) {
      throw new IllegalStateException(
          policy.name() + " planned " + plan + " on a stack of " + size + " at flush " + t);
    }
  }

  /** Replaces components from..to by one; returns its length. */
  private long merge(int from, int to, boolean keyed) {
    long length = 0;
    int[] merged = null;
    if (keyed) {
      merged = keys[from];
      for (int i = from + 1; i <= to; i++) {
        merged = union(merged, keys[i]);
      }
      length = merged.length * stream.recordBytes();
    } else {
      for (int i = from; i <= to; i++) {
        length += stack[i].sizeBytes();
      }
      length = stream.mergedLength(length, to - from + 1);
    }
    // The cost model tracks no key ranges: components keep KeyRange.UNKNOWN.
    Component out = new Component(stack[to].id(), length, stack[from].firstFlush(), stack[to].lastFlush(), 1, false);
    stack[from] = out;
    keys[from] = merged;
    int removed = to - from;
    System.arraycopy(stack, to + 1, stack, from + 1, size - to - 1);
    System.arraycopy(keys, to + 1, keys, from + 1, size - to - 1);
    for (int i = size - removed; i < size; i++) {
      stack[i] = null;
      keys[i] = null;
    }
    size -= removed;
    return length;
  }

  /** The sorted union of two sorted, distinct key arrays. */
  static int[] union(int[] a, int[] b) {
    int[] out = new int[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length && j < b.length) {
      int x = a[i];
      int y = b[j];
      if (x < y) {
        out[n++] = x;
        i++;
      } else if (y < x) {
        out[n++] = y;
        j++;
      } else {
        out[n++] = x;
        i++;
        j++;
      }
    }
    while (i < a.length) {
      out[n++] = a[i++];
    }
    while (j < b.length) {
      out[n++] = b[j++];
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }
}
