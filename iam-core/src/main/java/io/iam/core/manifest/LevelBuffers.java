package io.iam.core.manifest;

import java.util.List;

/**
 * What a {@link Version} keeps beside its levels for a tree that buffers files next to them
 * (tree=lsbm's compaction buffer lists B_i), without the manifest knowing that tree: the version
 * applies an edit's {@link Update} through it, records the {@link BufferDiff} for the manifest, and
 * replays recorded diffs on recovery. Implementations are immutable values. Trees without buffers
 * use {@link #NONE}.
 */
public interface LevelBuffers {

  /** An in-memory change a tree puts in a {@link VersionEdit}; only its own buffers read it. */
  interface Update {}

  /**
   * No buffers, what a version holds for the other trees: nothing changes and nothing is recorded;
   * an update or a recorded change is refused.
   */
  LevelBuffers NONE = new LevelBuffers() {
    @Override
    public LevelBuffers apply(Update update) {
      throw new IllegalStateException("this store keeps no level buffers: " + update);
    }

    @Override
    public BufferDiff diff(LevelBuffers before) {
      return BufferDiff.NONE;
    }

    @Override
    public LevelBuffers replay(BufferDiff diff) {
      throw new IllegalStateException("this store keeps no level buffers, yet its manifest records a buffer change");
    }

    @Override
    public List<FileMeta> allFiles() {
      return List.of();
    }

    @Override
    public String toString() {
      return "no level buffers";
    }
  };

  /** Every file the buffers hold: they are live, as the levels' files are. */
  List<FileMeta> allFiles();

  /** The buffers after {@code update}. */
  LevelBuffers apply(Update update);

  /** What changed from {@code before} to these buffers, for the manifest. */
  BufferDiff diff(LevelBuffers before);

  /** These buffers' whole state as a diff from empty ones (a new manifest's first record). */
  default BufferDiff asDiff() {
    return diff(empty());
  }

  /** Empty buffers of the same shape. */
  default LevelBuffers empty() {
    return this;
  }

  /** The buffers after a recorded {@code diff} (manifest replay). */
  LevelBuffers replay(BufferDiff diff);
}
