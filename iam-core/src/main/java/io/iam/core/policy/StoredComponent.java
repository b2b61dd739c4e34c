package io.iam.core.policy;

import java.util.Set;

/**
 * What {@link FlushLedger} needs to know of one component of a host engine's store (an HBase store
 * file, an AsterixDB disk component): a plain value, so the ledger knows nothing of the host.
 *
 * @param name the component's name, unique within its store
 * @param sizeBytes the component's length
 * @param mergedFrom names of the components a merge wrote this one from, as far as the host
 *     records them (it may also name older, already replaced components); empty for a flushed
 *     component
 * @param merging whether a merge is reading this component now
 * @param flushes how many flushes the component holds when the host knows it (AsterixDB numbers
 *     its flushes and gives every component the range it holds), or 0 when it does not
 */
public record StoredComponent(
    String name, long sizeBytes, Set<String> mergedFrom, boolean merging, long flushes) {

  public StoredComponent {
    mergedFrom = Set.copyOf(mergedFrom);
    if (flushes < 0) {
      throw new IllegalArgumentException("flush count must be >= 0: " + flushes);
    }
  }

  /** A component whose flush count the ledger works out. */
  public StoredComponent(String name, long sizeBytes, Set<String> mergedFrom, boolean merging) {
    this(name, sizeBytes, mergedFrom, merging, 0);
  }
}
