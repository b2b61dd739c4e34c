package io.iam.hbase.engine;

import java.util.List;

/**
 * The IAM trees of this region server's open stores, registered as {@value IamStores#NAME}. Read it
 * with any JMX client, or through the region server's info server: {@code
 * http://<regionserver>:16030/jmx?qry=io.iam:*}.
 */
public interface IamStoresMXBean {

  /** Every open store run by IAM's store engine, by store name. */
  List<StoreTree> getStores();

  /** Total time memstore flushes of all those stores have waited for their trees. */
  long getFlushWaitMillis();
}
