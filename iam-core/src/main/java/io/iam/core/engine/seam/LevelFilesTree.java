package io.iam.core.engine.seam;

import io.iam.core.iter.InternalIterator;
import io.iam.core.key.InternalKey;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import java.io.IOException;
import java.util.List;

/**
 * The read path of the trees that keep their data in the version's level files: every level-0 file
 * that covers the key, newest first, then the one file of each deeper level whose range holds it.
 * A subclass may answer a deeper level's lookups itself ({@link #find}, {@link #levelIterator}).
 */
public abstract class LevelFilesTree implements StoreTree {

  protected final TableCache tables;

  /** A tree reading the level files through {@code tables}. */
  protected LevelFilesTree(TableCache tables) {
    this.tables = tables;
  }

  @Override
  public byte[] get(Version v, byte[] key, long sequence, boolean latest) throws IOException {
    byte[] seek = InternalKey.seekKey(key, sequence);
    for (FileMeta f : v.files(0)) {
      if (v.covers(f, key)) {
        TableCache.Found found = tables.get(f, seek, key);
        if (found != null) {
          return found.value();
        }
      }
    }
    for (int level = 1; level < v.numLevels(); level++) {
      FileMeta f = v.fileFor(level, key);
      if (f != null) {
        TableCache.Found found = find(v, f, key, seek, sequence, latest);
        if (found != null) {
          return found.value();
        }
      }
    }
    return null;
  }

  @Override
  public void addIterators(Version v, boolean latest, byte[] upperBound, List<InternalIterator> children)
      throws IOException {
    for (FileMeta f : v.files(0)) {
      children.add(tables.iterator(f));
    }
    for (int level = 1; level < v.numLevels(); level++) {
      if (!v.files(level).isEmpty()) {
        children.add(levelIterator(v, v.files(level), latest));
      }
    }
  }

  /** The entry for {@code key} in {@code f}, a file of level 1 or deeper, or null. */
  protected TableCache.Found find(Version v, FileMeta f, byte[] key, byte[] seek, long sequence, boolean latest)
      throws IOException {
    return tables.get(f, seek, key);
  }

  /** An iterator over the sorted, disjoint {@code files} of one level. */
  protected InternalIterator levelIterator(Version v, List<FileMeta> files, boolean latest) {
    return tables.levelIterator(files);
  }
}
