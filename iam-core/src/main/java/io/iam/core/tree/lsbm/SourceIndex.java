package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferFile;

import io.iam.core.key.KeyComparator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sources of one file as one buffer sees them, indexed by key, for point reads: which of them
 * cover a key, still newest data first, found with one binary search over the ends of their ranges
 * instead of two comparisons per source; and for each, what a read asks next: whether the buffer
 * still holds it, and the index of its own sources. A read asks this at every level whose file has
 * sources, and on a mix of reads and writes the buffer's maps and key arrays are rarely in the
 * CPU's caches, so the lookups it saves are mostly memory waits. Immutable (the indexes of deeper
 * sources are filled in on first use) and thread-safe.
 *
 * <p>The sorted distinct range ends e_0 &lt; … &lt; e_{n-1} cut the key space into the points
 * e_i and the open gaps (e_i, e_{i+1}); every key of one piece is covered by the same sources,
 * because each range starts and ends at some e_i. Piece 2i is the point e_i, piece 2i+1 the gap
 * after it; keys before e_0 or after e_{n-1} are covered by none.
 */
public final class SourceIndex {

  /** One source of the file: the buffer file, whether the buffer still holds it, and its own sources. */
  public static final class Source {
    private final BufferFile file;
    private final boolean present;
    private final CompactionBuffer buffer;
    /** The index of this source's own sources: null until asked, {@link #NO_SOURCES} if it has none. */
    private volatile SourceIndex deeper;

    private Source(BufferFile file, boolean present, CompactionBuffer buffer) {
      this.file = file;
      this.present = present;
      this.buffer = buffer;
    }

    public BufferFile file() {
      return file;
    }

    /** Whether the buffer still holds this file (else it is a removed source's marker). */
    public boolean present() {
      return present;
    }

    /** The index of this file's own sources, or null if it has none and is read itself. */
    public SourceIndex sources() {
      SourceIndex d = deeper;
      if (d == null) {
        d = buffer.sourceIndex(file.fileNumber());
        deeper = d = d == null ? NO_SOURCES : d; // two readers may resolve it at once: both find the same
      }
      return d == NO_SOURCES ? null : d;
    }

    @Override
    public String toString() {
      return file + (present ? "" : " (removed)");
    }
  }

  private static final Source[] NONE = new Source[0];
  private static final SourceIndex NO_SOURCES = new SourceIndex(null, new byte[0][], new Source[0][]);

  private final KeyComparator user;
  private final byte[][] ends;
  private final Source[][] pieces;

  private SourceIndex(KeyComparator user, byte[][] ends, Source[][] pieces) {
    this.user = user;
    this.ends = ends;
    this.pieces = pieces;
  }

  /** The index of {@code sources} (newest data first) as {@code buffer} holds them, in that order per piece. */
  static SourceIndex of(List<BufferFile> sources, CompactionBuffer buffer) {
    KeyComparator user = buffer.userComparator();
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
    List<Source> resolved = new ArrayList<>();
    for (BufferFile b : sources) {
      resolved.add(new Source(b, buffer.contains(b.fileNumber()), buffer));
    }
    byte[][] ends = distinct.toArray(new byte[0][]);
    Source[][] pieces = new Source[2 * ends.length][];
    for (int i = 0; i < ends.length; i++) {
      pieces[2 * i] = coveringAll(resolved, user, ends[i], ends[i]);
      pieces[2 * i + 1] = i + 1 < ends.length ? coveringAll(resolved, user, ends[i], ends[i + 1]) : NONE;
    }
    return new SourceIndex(user, ends, pieces);
  }

  /** The sources whose range holds all of [from, to], in list order. */
  private static Source[] coveringAll(List<Source> sources, KeyComparator user, byte[] from, byte[] to) {
    List<Source> out = new ArrayList<>();
    for (Source s : sources) {
      if (user.compare(s.file.lo(), from) <= 0 && user.compare(s.file.hi(), to) >= 0) {
        out.add(s);
      }
    }
    return out.isEmpty() ? NONE : out.toArray(NONE);
  }

  /** The sources whose range covers {@code userKey}, newest data first; the caller must not change the array. */
  public Source[] covering(byte[] userKey) {
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
