package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.conf.Configuration;

/**
 * Opens HBase's package-private {@link StoreFlusher} to {@code io.iam.hbase.engine.IamStoreFlusher}:
 * HBase declares the flusher type of a store engine in its own package only. Adds nothing.
 */
public abstract class IamStoreFlusherBase extends StoreFlusher {

  protected IamStoreFlusherBase(Configuration conf, HStore store) {
    super(conf, store);
  }
}
