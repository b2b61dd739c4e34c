package io.iam.bench.ycsb;

import io.iam.bench.load.Latency;
import io.iam.bench.load.LoadMetrics;
import io.iam.bench.util.Progress;
import io.iam.bench.util.Threads;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import site.ycsb.DBException;
import site.ycsb.WorkloadException;
import site.ycsb.workloads.CoreWorkload;

/**
 * Runs a YCSB workload the way YCSB's {@code Client} does, without its {@code System.exit} calls
 * and process-wide measurements: per phase, one {@link CoreWorkload} initialised from the
 * workload's properties, and {@code threads} client threads, each with its own {@link StoreDb} (all
 * sharing one store) wrapped in a {@link TimedDb}, each calling {@link CoreWorkload#doInsert} (load)
 * or {@link CoreWorkload#doTransaction} (transactions) for its share of the operations; YCSB's split:
 * {@code count / threads} each, one more for the first {@code count % threads}.
 *
 * <p>The runner holds a reference to the shared store of its own from before the load to after the
 * report's metrics, so the store stays open between the phases; after the transactions it settles
 * the store (flush, wait for compactions; untimed) and reads its metrics.
 */
public final class YcsbRunner {

  /** How often a client thread moves the progress bar. */
  private static final int PROGRESS_EVERY = 256;

  private YcsbRunner() {}

  /** Runs {@code spec}; {@code progress} draws the bars on stderr if true. */
  public static YcsbResult run(YcsbSpec spec, boolean progress) throws IOException, DBException, WorkloadException {
    Properties props = spec.properties();
    SharedStore store = SharedStore.acquire(spec.dir(), StoreDb.config(props));
    try {
      PhaseResult load;
      try (Progress bar = Progress.over("ycsb load", spec.records(), " records", Progress.RECORDS_THRESHOLD,
          progress)) {
        load = phase(props, true, spec.records(), spec.threads(), bar);
      }
      Optional<PhaseResult> run = Optional.empty();
      if (!spec.loadOnly()) {
        try (Progress bar = Progress.over("ycsb " + spec.workload(), spec.operations(), " ops",
            Progress.RECORDS_THRESHOLD, progress)) {
          run = Optional.of(phase(props, false, spec.operations(), spec.threads(), bar));
        }
      }
      store.target().settle();
      LoadMetrics metrics = store.target().metrics();
      return new YcsbResult(spec, load, run, metrics, store.firstError());
    } finally {
      store.release();
    }
  }

  private static PhaseResult phase(Properties props, boolean load, long count, int threads, Progress bar)
      throws WorkloadException, DBException {
    CoreWorkload workload = Workloads.coreWorkload(props);
    List<Client> clients = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long share = count / threads + (t < count % threads ? 1 : 0);
      clients.add(new Client(workload, props, load, t, threads, share, bar));
    }
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> running = new ArrayList<>();
    long start = System.nanoTime();
    for (Client c : clients) {
      Thread thread = new Thread(c, "ycsb-client-" + c.id);
      thread.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
      running.add(thread);
      thread.start();
    }
    Threads.joinAll(running);
    long nanos = System.nanoTime() - start;
    workload.cleanup();
    rethrow(failure.get());
    Map<Operation, Histogram> nanosByOp = new EnumMap<>(Operation.class);
    Map<Operation, Long> errors = new EnumMap<>(Operation.class);
    long done = 0;
    for (Client c : clients) {
      c.timed.addTo(nanosByOp, errors);
      done += c.done;
    }
    List<PhaseResult.OperationStats> stats = new ArrayList<>();
    for (Operation op : Operation.values()) {
      Histogram h = nanosByOp.get(op);
      if (h != null || errors.containsKey(op)) {
        Histogram none = Latency.newNanosHistogram();
        stats.add(new PhaseResult.OperationStats(op, errors.getOrDefault(op, 0L),
            Latency.ofNanos(h == null ? none : h)));
      }
    }
    return new PhaseResult(done, nanos, stats);
  }

  private static void rethrow(Throwable t) throws DBException, WorkloadException {
    if (t == null) {
      return;
    }
    if (t instanceof ClientFailure f && f.getCause() instanceof DBException d) {
      throw d;
    }
    if (t instanceof ClientFailure f && f.getCause() instanceof WorkloadException w) {
      throw w;
    }
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw new IllegalStateException(t);
  }

  /** A DBException or WorkloadException out of a client thread, thrown again by the runner. */
  private static final class ClientFailure extends RuntimeException {
    ClientFailure(Exception e) {
      super(e);
    }
  }

  /** One YCSB client thread: its DB, its workload state, its share of the operations. */
  private static final class Client implements Runnable {
    final int id;
    private final CoreWorkload workload;
    private final Properties props;
    private final boolean load;
    private final int threads;
    private final long share;
    private final Progress bar;
    TimedDb timed;
    long done;

    Client(CoreWorkload workload, Properties props, boolean load, int id, int threads, long share, Progress bar) {
      this.workload = workload;
      this.props = props;
      this.load = load;
      this.id = id;
      this.threads = threads;
      this.share = share;
      this.bar = bar;
    }

    @Override
    public void run() {
      StoreDb db = new StoreDb();
      db.setProperties(props);
      timed = new TimedDb(db);
      try {
        db.init();
        try {
          Object state = workload.initThread(props, id, threads);
          for (done = 0; done < share; done++) {
            boolean ok = load ? workload.doInsert(timed, state) : workload.doTransaction(timed, state);
            if (!ok) {
              // As YCSB's client: the workload gave up (an insert failed after its retries; TimedDb
              // counted it), so this thread stops.
              done++;
              break;
            }
            if ((done + 1) % PROGRESS_EVERY == 0) {
              bar.accept(PROGRESS_EVERY);
            }
          }
          bar.accept(done % PROGRESS_EVERY);
        } finally {
          db.cleanup();
        }
      } catch (DBException | WorkloadException e) {
        throw new ClientFailure(e);
      }
    }
  }
}
