package io.iam.hbase.compaction;

import java.util.Set;

/**
 * What {@link FlushLedger} needs to know of one HBase store file: a plain value, so the ledger can
 * be tested without a region server.
 *
 * @param name the file's name, unique within its store
 * @param sizeBytes the file's length
 * @param compactedFrom names of the files a compaction wrote this one from (HBase records them in
 *     the file's {@code COMPACTION_EVENT_KEY}); empty for a flushed or bulk-loaded file
 * @param compacting whether a compaction is reading this file now
 */
public record StoreFileView(String name, long sizeBytes, Set<String> compactedFrom, boolean compacting) {

  public StoreFileView {
    compactedFrom = Set.copyOf(compactedFrom);
  }
}
