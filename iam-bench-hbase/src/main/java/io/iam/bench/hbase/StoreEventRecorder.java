package io.iam.bench.hbase;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.FlushLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.StoreFile;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;

/**
 * Every flush and compaction of the tables that load it as a table coprocessor, per table, for
 * {@link HBaseHostExperiment}: the length of each flushed HFile and of each compaction output, in
 * the order the region server committed them ({@code postFlush}, {@code postCompact}), and each
 * compaction's time from the start of its rewrite ({@code preCompact}) to the commit of its output,
 * and the files each compaction read with their lengths.
 * The lengths are the written files' own, so what the host wrote is counted by the host. The region
 * server is the mini cluster in this JVM, so the experiment reads {@link #of} directly.
 *
 * <p>A compaction of HBase's default store engine writes one file, so each {@code postCompact} ends
 * one compaction. A table's events are kept until {@link #forget}. Thread-safe: the region server's
 * flush and compaction threads record while the experiment reads.
 */
public final class StoreEventRecorder implements RegionCoprocessor, RegionObserver {

  /** One table's flushes and compactions, in order of commit. */
  static final class Events {
    private final List<Long> flushLengths = Collections.synchronizedList(new ArrayList<>());
    private final List<Long> compactionLengths = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong compactionNanos = new AtomicLong();
    private final AtomicLong compactionInputs = new AtomicLong();
    private final AtomicLong compactionInputBytes = new AtomicLong();
    /** The start of each compaction running now, by its request. */
    private final Map<CompactionRequest, Long> started = Collections.synchronizedMap(new IdentityHashMap<>());

    /** Flushed HFiles so far. */
    int flushes() {
      return flushLengths.size();
    }

    /** Compaction outputs so far. */
    int compactions() {
      return compactionLengths.size();
    }

    /** Compactions started and not yet committed. */
    int running() {
      return started.size();
    }

    /** A copy of the flushed HFiles' lengths, in order. */
    List<Long> flushLengths() {
      synchronized (flushLengths) {
        return List.copyOf(flushLengths);
      }
    }

    /** A copy of the compaction outputs' lengths, in order of commit. */
    List<Long> compactionLengths() {
      synchronized (compactionLengths) {
        return List.copyOf(compactionLengths);
      }
    }

    /** The files the committed compactions read, added up. */
    long compactionInputs() {
      return compactionInputs.get();
    }

    /** The lengths of those files, added up. */
    long compactionInputBytes() {
      return compactionInputBytes.get();
    }

    /** The time compactions ran, added up, in milliseconds. */
    long compactionMillis() {
      return compactionNanos.get() / 1_000_000;
    }
  }

  private static final ConcurrentMap<TableName, Events> BY_TABLE = new ConcurrentHashMap<>();

  /** The events of {@code table}; empty ones if it has neither flushed nor compacted yet. */
  static Events of(TableName table) {
    return BY_TABLE.computeIfAbsent(table, t -> new Events());
  }

  /** Drops the events of {@code table} (once it is dropped). */
  static void forget(TableName table) {
    BY_TABLE.remove(table);
  }

  @Override
  public Optional<RegionObserver> getRegionObserver() {
    return Optional.of(this);
  }

  @Override
  public void postFlush(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store, StoreFile resultFile,
      FlushLifeCycleTracker tracker) throws IOException {
    if (resultFile != null) {
      events(ctx).flushLengths.add(length(ctx, resultFile));
    }
  }

  @Override
  public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store,
      InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker, CompactionRequest request) {
    events(ctx).started.put(request, System.nanoTime());
    return scanner;
  }

  @Override
  public void postCompact(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store, StoreFile resultFile,
      CompactionLifeCycleTracker tracker, CompactionRequest request) throws IOException {
    Events e = events(ctx);
    Long start = e.started.remove(request);
    if (start != null) {
      e.compactionNanos.addAndGet(System.nanoTime() - start);
    }
    if (resultFile != null) {
      long inputBytes = 0;
      for (StoreFile input : request.getFiles()) {
        inputBytes += length(ctx, input);
      }
      e.compactionInputs.addAndGet(request.getFiles().size());
      e.compactionInputBytes.addAndGet(inputBytes);
      e.compactionLengths.add(length(ctx, resultFile));
    }
  }

  private static Events events(ObserverContext<RegionCoprocessorEnvironment> ctx) {
    return of(ctx.getEnvironment().getRegionInfo().getTable());
  }

  /** The committed file's length, from its open reader, or else from the file system. */
  private static long length(ObserverContext<RegionCoprocessorEnvironment> ctx, StoreFile file) throws IOException {
    if (file instanceof HStoreFile h && h.getReader() != null) {
      return h.getReader().length();
    }
    return file.getPath().getFileSystem(ctx.getEnvironment().getConfiguration()).getFileStatus(file.getPath()).getLen();
  }
}
