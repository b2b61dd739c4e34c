package io.iam.core.tree.layout;

/**
 * One store file as the tree sees it: the file, its tag (null when the engine did not place it:
 * written before the engine was switched on, bulk loaded, or a reference left by a region split
 * or merge), the first and last row it holds (null for a file without cells, a node's marker) and
 * its size in bytes: the serialized bytes of its cells when the engine recorded them, else its
 * length. A shared flush file also carries its {@link Slices}: it belongs to no one node but
 * to all of level 1; null for every other file.
 *
 * @param <F> the file type (HBase's {@code HStoreFile} at run time, anything in unit tests)
 */
public record Sequence<F>(F file, NodeTag tag, byte[] first, byte[] last, long bytes, Slices slices) {

  /** A file that is not a shared flush file. */
  public Sequence(F file, NodeTag tag, byte[] first, byte[] last, long bytes) {
    this(file, tag, first, last, bytes, null);
  }

  /** Whether this is a shared flush file of level 1 (see {@link Slices}). */
  public boolean isShared() {
    return slices != null && tag != null;
  }

  /** Whether the file holds no cells: it only carries its node's metadata. */
  public boolean isMarker() {
    return first == null;
  }
}
