package io.iam.bench.util;

/** What a benchmark that runs several stores one after another in one JVM does between them. */
public final class Jvm {

  private Jvm() {}

  /**
   * Collects the previous store's garbage before the next store starts, so the next store does not
   * pay for it. A Java store leaves a large heap behind (its block cache, its memtables). Without
   * this, the collector reclaims it on the same cores during the next store's run: on the 2-core
   * machine of docs/benchmarks.md, RocksDB loaded at 41,225–44,146 ops/s after an IAM load in the
   * same JVM, and at 49,081–49,731 ops/s after this collection or when run first.
   */
  public static void releaseHeap() {
    System.gc();
  }
}
