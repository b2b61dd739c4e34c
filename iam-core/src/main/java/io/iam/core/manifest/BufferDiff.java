package io.iam.core.manifest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one edit changed in a tree's level buffers (tree=lsbm's compaction buffer), as the manifest
 * records it: files that entered a list (with their metadata, newest first per level), files that
 * left one, sources lists set (whole) and dropped. Epochs, Bloom filters and the freeze state are
 * not recorded: a replayed buffer gives its files new epochs, admits every key in a removed
 * source's range (a read there goes to the level's file), and starts unfrozen; all three only cost
 * hits, never correctness.
 *
 * @param added (level, file), newest first within a level
 * @param removed (level, file number) of files that left a list
 * @param sourcesSet by owner, its whole list (entries: file, narrowed lo and hi)
 * @param sourcesDropped owners whose sources list went
 */
public record BufferDiff(List<Added> added, List<Removal> removed, Map<Long, List<BufferFile>> sourcesSet,
    List<Long> sourcesDropped) {

  /** No change. */
  public static final BufferDiff NONE = new BufferDiff(List.of(), List.of(), Map.of(), List.of());

  /** A file that entered the list of {@code level}. */
  public record Added(int level, FileMeta file) {}

  /** A file that left the list of {@code level}. */
  public record Removal(int level, long fileNumber) {}

  public BufferDiff {
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    sourcesSet = Collections.unmodifiableMap(new LinkedHashMap<>(sourcesSet));
    sourcesDropped = List.copyOf(sourcesDropped);
  }

  public boolean isEmpty() {
    return added.isEmpty() && removed.isEmpty() && sourcesSet.isEmpty() && sourcesDropped.isEmpty();
  }
}
