package io.iam.core.engine;

import io.iam.core.engine.seam.StoreCounters;
import io.iam.core.engine.seam.StoreTree;

/**
 * Opens to the tests of the tree packages what an open store keeps to itself: its tree, whose
 * package-private parts those tests then reach from their own package, and the counters behind
 * its statistics.
 */
public final class StoreInternals {

  private StoreInternals() {}

  /** The tree {@code store} keeps its files in. */
  public static StoreTree tree(IamStore store) {
    return store.storeTree();
  }

  /** The counters the parts of {@code store} bump. */
  public static StoreCounters counters(IamStore store) {
    return store.statistics().counters();
  }
}
