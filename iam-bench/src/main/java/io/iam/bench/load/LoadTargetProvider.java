package io.iam.bench.load;

import java.util.Map;

/**
 * Stores that live outside {@code iam-bench}, found with {@link java.util.ServiceLoader}: a module
 * such as {@code iam-bench-hbase} lists its provider in {@code
 * META-INF/services/io.iam.bench.load.LoadTargetProvider}, and its stores then answer to {@code iam
 * load --tree}, {@code iam ycsb --engine} and {@code iam compare --engines} like the built-in ones.
 *
 * <p>A provider only translates: it opens its store from a {@link LoadConfig} (the budgets and
 * {@link LoadConfig#engineOptions()}) and answers the {@link LoadTarget} calls.
 */
public interface LoadTargetProvider {

  /** The stores this provider opens, by name, in the order they should be listed. */
  Map<String, LoadTarget.Factory> targets();
}
