package io.iam.core.tree.lsbm;

import io.iam.core.key.KeyComparator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sources of one file, indexed by key: which of them cover a key, still newest data first,
 * found with one binary search over the ends of their ranges instead of two comparisons per
 * source. A point read asks this at every level whose file has sources, and on a mix of reads and
 * writes the source list's keys are rarely in the CPU's caches, so the comparisons it saves are
 * mostly memory waits. Immutable and thread-safe.
 *
 * <p>The sorted distinct range ends e_0 &lt; … &lt; e_{n-1} cut the key space into the points
 * e_i and the open gaps (e_i, e_{i+1}); every key of one piece is covered by the same sources,
 * because each range starts and ends at some e_i. Piece 2i is the point e_i, piece 2i+1 the gap
 * after it; keys before e_0 or after e_{n-1} are covered by none.
 */
final class SourceIndex {

  private static final BufferFile[] NONE = new BufferFile[0];

  private final KeyComparator user;
  private final byte[][] ends;
  private final BufferFile[][] pieces;

  private SourceIndex(KeyComparator user, byte[][] ends, BufferFile[][] pieces) {
    this.user = user;
    this.ends = ends;
    this.pieces = pieces;
  }

  /** The index of {@code sources} (newest data first), which it keeps in that order per piece. */
  static SourceIndex of(List<BufferFile> sources, KeyComparator user) {
    List<byte[]> all = new ArrayList<>();
    for (BufferFile b : sources) {
      all.add(b.lo());
      all.add(b.hi());
    }
    all.sort(user::compare);
    List<byte[]> distinct = new ArrayList<>();
    for (byte[] e : all) {
      if (distinct.isEmpty() || user.compare(distinct.get(distinct.size() - 1), e) != 0) {
        distinct.add(e);
      }
    }
    byte[][] ends = distinct.toArray(new byte[0][]);
    BufferFile[][] pieces = new BufferFile[2 * ends.length][];
    for (int i = 0; i < ends.length; i++) {
      pieces[2 * i] = coveringAll(sources, user, ends[i], ends[i]);
      pieces[2 * i + 1] = i + 1 < ends.length ? coveringAll(sources, user, ends[i], ends[i + 1]) : NONE;
    }
    return new SourceIndex(user, ends, pieces);
  }

  /** The sources whose range holds all of [from, to], in list order. */
  private static BufferFile[] coveringAll(List<BufferFile> sources, KeyComparator user, byte[] from, byte[] to) {
    List<BufferFile> out = new ArrayList<>();
    for (BufferFile b : sources) {
      if (user.compare(b.lo(), from) <= 0 && user.compare(b.hi(), to) >= 0) {
        out.add(b);
      }
    }
    return out.isEmpty() ? NONE : out.toArray(NONE);
  }

  /** The sources whose range covers {@code userKey}, newest data first; the caller must not change the array. */
  BufferFile[] covering(byte[] userKey) {
    int lo = 0;
    int hi = ends.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = user.compare(ends[mid], userKey);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return pieces[2 * mid];
      }
    }
    return lo == 0 || lo == ends.length ? NONE : pieces[2 * (lo - 1) + 1];
  }

  @Override
  public String toString() {
    return ends.length + " ends, pieces " + Arrays.deepToString(pieces);
  }
}
