package io.iam.hbase.read;

import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.BloomFilterMetrics;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.regionserver.StoreFileInfo;
import org.apache.hadoop.hbase.regionserver.StoreFileReader;
import org.apache.hadoop.hbase.regionserver.StoreFileScanner;

/**
 * An HBase store file whose positional-read scanners (the ones user scans and Gets start with)
 * are {@link DeferredStartScanner}s. Stream scanners, which compactions and long scans use, are
 * HBase's own.
 */
public final class DeferredStartStoreFile extends HStoreFile {

  /** The same arguments as {@link HStoreFile}'s constructor. */
  public DeferredStartStoreFile(StoreFileInfo info, BloomType bloom, CacheConfig cache, BloomFilterMetrics metrics) {
    super(info, bloom, cache, metrics);
  }

  @Override
  public StoreFileScanner getPreadScanner(boolean cacheBlocks, long readPoint, long scannerOrder,
      boolean canOptimizeForNonNullColumn) {
    StoreFileReader reader = getReader();
    HFile.Reader hfile = reader.getHFileReader();
    return new DeferredStartScanner(reader, reader.getScanner(cacheBlocks, true, false), true, hfile.hasMVCCInfo(),
        readPoint, scannerOrder, canOptimizeForNonNullColumn,
        hfile.getDataBlockEncoding() == DataBlockEncoding.ROW_INDEX_V1);
  }
}
