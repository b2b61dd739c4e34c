package io.iam.hbase.engine;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.ScannerContext;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;

/**
 * A test coprocessor that, once armed, holds the next compaction of its table in the middle: the
 * compaction reads and writes its first batch of cells, then waits until {@link #release}. Armed
 * with {@link #arm}, it then fails, as a compaction on a dead server would never finish; armed with
 * {@link #pause}, it holds only a compaction whose request passes a test and then goes on.
 */
public final class CompactionGate implements RegionCoprocessor, RegionObserver {

  private static volatile boolean armed;
  private static volatile boolean failAfterRelease;
  private static volatile java.util.function.Predicate<CompactionRequest> which = r -> true;
  private static volatile CountDownLatch inside = new CountDownLatch(1);
  private static volatile CountDownLatch released = new CountDownLatch(1);

  /** Holds the next compaction. */
  static void arm() {
    arm(true, r -> true);
  }

  /** Holds the next compaction whose request passes {@code test}, until {@link #release}, then lets it finish. */
  static void pause(java.util.function.Predicate<CompactionRequest> test) {
    arm(false, test);
  }

  private static void arm(boolean fail, java.util.function.Predicate<CompactionRequest> test) {
    inside = new CountDownLatch(1);
    released = new CountDownLatch(1);
    failAfterRelease = fail;
    which = test;
    armed = true;
  }

  /** Waits until a compaction is held. */
  static boolean awaitHeld(long seconds) throws InterruptedException {
    return inside.await(seconds, TimeUnit.SECONDS);
  }

  /** Lets the held compaction fail (armed by {@link #arm}) or finish (armed by {@link #pause}). */
  static void release() {
    armed = false;
    released.countDown();
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
      InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker, CompactionRequest request) {
    if (!armed || !which.test(request)) {
      return scanner;
    }
    armed = false;
    CountDownLatch in = inside;
    CountDownLatch out = released;
    boolean fail = failAfterRelease;
    return new InternalScanner() {
      private int batches;

      @Override
      public boolean next(List<Cell> result, ScannerContext context) throws IOException {
        if (batches++ == 1) {
          in.countDown();
          try {
            out.await(60, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          if (fail) {
            throw new InterruptedIOException("compaction held by the test until its server died");
          }
        }
        return scanner.next(result, context);
      }

      @Override
      public void close() throws IOException {
        scanner.close();
      }
    };
  }
}
