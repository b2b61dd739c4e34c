package io.iam.hbase.engine;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * The files tree steps replaced and the store has not archived yet, and which of them may be
 * closed now.
 *
 * <p>HBase reads the replaced files' readers after it has swapped them out
 * ({@code HStore.replaceStoreFiles} then sums their lengths for the store's size and space quota),
 * outside any lock the engine can take. A file closed in between makes that compaction fail with a
 * {@code NullPointerException} after its results are in place. So a replaced file is offered for
 * closing only once HBase is done with the step that replaced it: when the compaction thread that
 * ran it starts another step (a thread runs one compaction at a time, to its end), or after
 * {@link #GRACE_NANOS} in any case (a thread that runs no further step). Until then the file stays
 * compacted-away and unread, and merely waits to be archived.
 *
 * <p>Thread-safe.
 *
 * @param <F> the file type
 */
final class ReplacedFiles<F> {

  /** How long after its replacement a file is closable even if its thread ran no further step. */
  static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(10);

  private record Replaced<F>(F file, Thread by, long stepsStartedBefore, long atNanos) {}

  private final LongSupplier clock;
  /** @GuardedBy("this") */
  private final List<Replaced<F>> replaced = new ArrayList<>();
  /** @GuardedBy("this") Steps each compaction thread has started; threads that end are dropped. */
  private final Map<Thread, Long> stepsStarted = new WeakHashMap<>();

  /** @param clock nanoseconds, as {@link System#nanoTime} */
  ReplacedFiles(LongSupplier clock) {
    this.clock = clock;
  }

  /** Records that the current thread replaced {@code files}. */
  synchronized void add(Collection<F> files) {
    Thread by = Thread.currentThread();
    long started = stepsStarted.getOrDefault(by, 0L);
    long now = clock.getAsLong();
    for (F f : files) {
      replaced.add(new Replaced<>(f, by, started, now));
    }
  }

  /** Records that the current thread starts a step: the files its earlier steps replaced may be closed. */
  synchronized void stepStarting() {
    stepsStarted.merge(Thread.currentThread(), 1L, Long::sum);
  }

  /** The replaced files that may be closed now. */
  synchronized List<F> closable() {
    long now = clock.getAsLong();
    List<F> out = new ArrayList<>();
    for (Replaced<F> r : replaced) {
      if (now - r.atNanos() >= GRACE_NANOS || stepsStarted.getOrDefault(r.by(), 0L) > r.stepsStartedBefore()) {
        out.add(r.file());
      }
    }
    return out;
  }

  /** Forgets {@code files} (archived). */
  synchronized void remove(Collection<F> files) {
    Set<F> gone = Collections.newSetFromMap(new IdentityHashMap<>());
    gone.addAll(files);
    replaced.removeIf(r -> gone.contains(r.file()));
  }

  /** Every replaced file, forgotten (the store closes and closes them all). */
  synchronized List<F> clear() {
    List<F> all = replaced.stream().map(Replaced::file).collect(Collectors.toList());
    replaced.clear();
    return all;
  }
}
