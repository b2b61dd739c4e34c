package io.iam.core.manifest;

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

  /** No buffers: every update and diff is refused, and a version holds this for other trees. */
  LevelBuffers NONE = new LevelBuffers() {
    @Override
    public LevelBuffers apply(Update update) {
      throw new IllegalStateException("this store keeps no level buffers: " + update);
    }

    @Override
    public BufferDiff diff(LevelBuffers before) {
      return new BufferDiff(java.util.List.of(), java.util.List.of(), java.util.Map.of(), java.util.List.of());
    }

    @Override
    public LevelBuffers replay(BufferDiff diff) {
      throw new IllegalStateException("this store keeps no level buffers, yet its manifest records a buffer change");
    }

    @Override
    public java.util.List<FileMeta> allFiles() {
      return java.util.List.of();
    }

    @Override
    public String toString() {
      return "no level buffers";
    }
  };

  /** Every file the buffers hold: they are live, as the levels' files are. */
  java.util.List<FileMeta> allFiles();

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
