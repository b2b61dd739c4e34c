package io.iam.hbase.metrics;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Bytes one HBase store has written, counted by {@link StoreWriteObserver}: every flushed file and
 * every compaction output, plus the store's file count after each of those events. In-process,
 * for tests and iam-bench; a cluster exports the same counters through HBase's coprocessor
 * metrics (JMX).
 *
 * <p>Write amplification of a store is {@code (flushedBytes + compactedBytes) / flushedBytes}.
 * Under IAM's store engine each written file is also counted under the tree level its tag names
 * (level 0: files without a tag, such as every file of HBase's own engines). Thread-safe.
 */
public final class StoreWriteStats {

  /** How many file-count samples a store keeps (the oldest are dropped). */
  public static final int MAX_SAMPLES = 16_384;

  /** A store: table, region (encoded name) and column family. */
  public record StoreId(String table, String region, String family) {}

  /** The store's file count at one moment. */
  public record FileCountSample(long timeMillis, int storeFiles) {}

  /**
   * An immutable copy of a store's counters: {@code memstoreFlushes} counts memstore flushes,
   * {@code flushes} the files they wrote (one per flush under HBase's engines, one per level-1
   * node receiving rows under IAM's).
   */
  public record Snapshot(long memstoreFlushes, long flushes, long flushedBytes, long compactionOutputs,
      long compactedBytes, List<FileCountSample> fileCounts, List<Long> bytesByLevel) {

    public Snapshot {
      fileCounts = List.copyOf(fileCounts);
      bytesByLevel = List.copyOf(bytesByLevel);
    }

    /** Bytes written (flushed and compacted) into files of tree level {@code level}; 0 past the deepest. */
    public long bytesAtLevel(int level) {
      return level < bytesByLevel.size() ? bytesByLevel.get(level) : 0;
    }

    /** Bytes written to store files per byte flushed; 0 before the first flush. */
    public double writeAmplification() {
      return flushedBytes == 0 ? 0 : (double) (flushedBytes + compactedBytes) / flushedBytes;
    }

    /** The most files the store held after any event. */
    public int maxStoreFiles() {
      return fileCounts.stream().mapToInt(FileCountSample::storeFiles).max().orElse(0);
    }
  }

  private static final Map<StoreId, StoreWriteStats> STORES = new ConcurrentHashMap<>();

  private long memstoreFlushes;
  private long flushes;
  private long flushedBytes;
  private long compactionOutputs;
  private long compactedBytes;
  private final ArrayDeque<FileCountSample> samples = new ArrayDeque<>();
  private final List<Long> levelBytes = new java.util.ArrayList<>();
  /** The first {@link #MAX_SAMPLES} flushed files' lengths, in order; later ones are not kept. */
  private long[] flushLengths = new long[64];

  private StoreWriteStats() {}

  static StoreWriteStats of(StoreId id) {
    return STORES.computeIfAbsent(id, k -> new StoreWriteStats());
  }

  synchronized void memstoreFlushed() {
    memstoreFlushes++;
  }

  synchronized void flushed(long bytes, int level, int storeFiles, long now) {
    flushes++;
    flushedBytes += bytes;
    if (flushes <= MAX_SAMPLES) {
      if (flushes > flushLengths.length) {
        flushLengths = java.util.Arrays.copyOf(flushLengths, Math.min(MAX_SAMPLES, 2 * flushLengths.length));
      }
      flushLengths[(int) flushes - 1] = bytes;
    }
    written(level, bytes);
    sample(now, storeFiles);
  }

  synchronized void compacted(long bytes, int level, int storeFiles, long now) {
    compactionOutputs++;
    compactedBytes += bytes;
    written(level, bytes);
    sample(now, storeFiles);
  }

  private void written(int level, long bytes) {
    while (levelBytes.size() <= level) {
      levelBytes.add(0L);
    }
    levelBytes.set(level, levelBytes.get(level) + bytes);
  }

  private void sample(long now, int storeFiles) {
    if (samples.size() == MAX_SAMPLES) {
      samples.removeFirst();
    }
    samples.addLast(new FileCountSample(now, storeFiles));
  }

  synchronized Snapshot snapshot() {
    return new Snapshot(memstoreFlushes, flushes, flushedBytes, compactionOutputs, compactedBytes,
        List.copyOf(samples), levelBytes);
  }

  /** Every store this process has seen, with its counters. */
  public static Map<StoreId, Snapshot> all() {
    Map<StoreId, Snapshot> copy = new java.util.TreeMap<>(
        java.util.Comparator.comparing(StoreId::table).thenComparing(StoreId::region)
            .thenComparing(StoreId::family));
    STORES.forEach((id, stats) -> copy.put(id, stats.snapshot()));
    return copy;
  }

  /**
   * The counters of every store of {@code table}'s {@code family} in this process, summed; the
   * file-count samples of all of them, in time order.
   */
  public static Snapshot total(String table, String family) {
    long mf = 0, f = 0, fb = 0, c = 0, cb = 0;
    List<FileCountSample> samples = new java.util.ArrayList<>();
    List<Long> levels = new java.util.ArrayList<>();
    for (Map.Entry<StoreId, Snapshot> e : all().entrySet()) {
      if (e.getKey().table().equals(table) && e.getKey().family().equals(family)) {
        Snapshot s = e.getValue();
        mf += s.memstoreFlushes();
        f += s.flushes();
        fb += s.flushedBytes();
        c += s.compactionOutputs();
        cb += s.compactedBytes();
        samples.addAll(s.fileCounts());
        for (int i = 0; i < s.bytesByLevel().size(); i++) {
          if (levels.size() <= i) {
            levels.add(0L);
          }
          levels.set(i, levels.get(i) + s.bytesByLevel().get(i));
        }
      }
    }
    samples.sort(java.util.Comparator.comparingLong(FileCountSample::timeMillis));
    return new Snapshot(mf, f, fb, c, cb, samples, levels);
  }

  /**
   * The lengths of the files {@code table}'s {@code family} flushed, in order, if the table has one
   * store in this process and it flushed at most {@link #MAX_SAMPLES} files (so a simulator can
   * replay the same flushes); empty otherwise.
   */
  public static List<Long> flushLengths(String table, String family) {
    List<StoreWriteStats> stores = new java.util.ArrayList<>();
    STORES.forEach((id, stats) -> {
      if (id.table().equals(table) && id.family().equals(family)) {
        stores.add(stats);
      }
    });
    if (stores.size() != 1) {
      return List.of();
    }
    synchronized (stores.get(0)) {
      StoreWriteStats only = stores.get(0);
      return only.flushes > MAX_SAMPLES ? List.of()
          : java.util.Arrays.stream(only.flushLengths, 0, (int) only.flushes).boxed().toList();
    }
  }

  /** Forgets every store (between tests). */
  public static void reset() {
    STORES.clear();
  }
}
