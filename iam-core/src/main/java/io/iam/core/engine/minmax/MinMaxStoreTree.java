package io.iam.core.engine.minmax;

import io.iam.core.iter.InternalIterator;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.memtable.MemTable;
import io.iam.core.engine.seam.StoreParts;
import io.iam.core.engine.seam.StoreTree;
import io.iam.core.engine.seam.TreeHost;
import java.io.IOException;
import java.util.List;

/**
 * tree=minmax: Min-Max bucket eviction, run by {@link MinMaxEngine}. A memtable flush drains into
 * the write cache and installs the buckets it evicted (level 0 holds the buckets, which the write
 * stall triggers do not count); one maintenance sort at a time merges overlapping buckets. Reads
 * take a ticket under the store's mutex before they pin their version, and search the write cache,
 * then the buckets.
 */
public final class MinMaxStoreTree implements StoreTree {

  private final MinMaxEngine minmax;
  private final TreeHost host;

  /** tree=minmax as {@code settings} configure it. */
  public MinMaxStoreTree(StoreParts parts, TreeHost host, MinMaxSettings settings) {
    this.minmax = new MinMaxEngine(parts, settings);
    this.host = host;
  }

  /** The write cache and the buckets. */
  public MinMaxEngine engine() {
    return minmax;
  }

  @Override
  public int stallFiles(Version v) {
    return 0;
  }

  @Override
  public boolean readsTakeTicket() {
    return true;
  }

  @Override
  public long openRead() {
    return minmax.openRead();
  }

  @Override
  public void closeRead(long ticket) {
    minmax.closeRead(ticket);
  }

  @Override
  public byte[] get(Version v, byte[] key, long sequence, boolean latest) throws IOException {
    return minmax.get(v, key, sequence);
  }

  @Override
  public void addIterators(Version v, boolean latest, byte[] upperBound, List<InternalIterator> children) {
    children.add(minmax.cacheIterator());
    children.add(minmax.bucketIterator(v, upperBound)); // level 0: the buckets, opened as a scan reaches them
  }

  @Override
  public void countSeek() {
    minmax.countSeek();
  }

  @Override
  public Flush flush(MemTable table, long logNumber) {
    return Flush.of("min-max flush", (nextLog, smallestSnapshot, outputs) -> minmax.drain(table, logNumber, nextLog,
        smallestSnapshot, host::newOutputNumber, outputs, host.rateLimiter()));
  }

  @Override
  public void schedule(TreeHost h) {
    if (h.running() > 0) {
      return;
    }
    List<FileMeta> inputs = minmax.planSort(h.current());
    if (!inputs.isEmpty()) {
      h.start("min-max sort", outputs -> minmax.sort(inputs, h.smallestSnapshot(), h::newOutputNumber, outputs,
          h.rateLimiter()), TreeHost.End.NOTHING);
    }
  }

  @Override
  public boolean hasWork(Version v) {
    return !minmax.planSort(v).isEmpty();
  }
}
