/**
 * The {@code hbase} store of iam-bench: {@link io.iam.bench.hbase.HBaseTarget}, an HBase table whose
 * column family runs one of iam-core's policies through iam-hbase, in an in-process mini cluster
 * ({@link io.iam.bench.hbase.MiniCluster}) or on a real cluster. {@link
 * io.iam.bench.hbase.HBaseOptions} turns {@code iam ycsb -o KEY=VALUE} into the column family's
 * properties, validated by iam-hbase's own settings classes. The same table, under one policy and
 * flushed step by step, is the {@code hbase} host of {@code iam host-experiment} ({@link
 * io.iam.bench.hbase.HBaseHostExperiment}).
 */
package io.iam.bench.hbase;
