package io.iam.core.engine;

import io.iam.core.engine.seam.TableCache;
import io.iam.core.key.InternalKey;
import io.iam.core.key.KeyComparator;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.Version;
import java.io.IOException;

/**
 * Checks a version's files: every file opens and verifies (its keys in order, within its recorded
 * range, its checksums), and every node's file holds keys of the node's range only.
 */
final class TreeVerifier {

  private TreeVerifier() {}

  /**
   * Returns the number of entries checked.
   *
   * @throws IOException describing the first problem found
   */
  static long verify(Version v, TableCache tables, KeyComparator user) throws IOException {
    long entries = 0;
    for (int level = 0; level < v.numLevels(); level++) {
      for (FileMeta f : v.files(level)) {
        entries += tables.verify(f);
      }
      for (NodeMeta n : v.nodes(level)) {
        FileMeta f = n.file();
        if (f != null && (user.compare(InternalKey.userKey(f.smallest()), n.lo()) < 0
            || user.compare(InternalKey.userKey(f.largest()), n.hi()) > 0)) {
          throw new IOException("level " + level + ": " + n + " holds keys outside its range");
        }
      }
    }
    return entries;
  }
}
