package io.iam.core.tree.lsbm;

import io.iam.core.manifest.BufferDiff;
import io.iam.core.manifest.FileMeta;
import io.iam.core.manifest.Version;
import io.iam.core.manifest.VersionEdit;
import io.iam.core.manifest.VersionSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.tree.lsbm.BufferChange;
import io.iam.core.manifest.BufferFile;
import io.iam.core.tree.lsbm.BufferedMerge;
import io.iam.core.tree.lsbm.LsbmConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tree=lsbm and the manifest: a compaction's edit moves its inputs from the levels to B_{i+1} in
 * one record, with the outputs' sources; buffer files stay live; recovery replays the buffer
 * (files, sources lists, removals), also from a new manifest's snapshot, and a file a trim removed
 * stays removed.
 */
class LsbmManifestTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
  private static final CompactionBuffer EMPTY = CompactionBuffer.empty(BytewiseComparator.INSTANCE, 4);
  private static final LsbmConfig CONFIG = new LsbmConfig(new long[] {0, 1 << 20, 10 << 20, 100 << 20}, 1.0, 0.1, 0.5);

  private static FileMeta file(long number, String lo, String hi) {
    return new FileMeta(number, 1000, 1, 10, InternalKey.encode(lo.getBytes(StandardCharsets.UTF_8), 9, ValueType.PUT),
        InternalKey.encode(hi.getBytes(StandardCharsets.UTF_8), 8, ValueType.PUT), 8, 9);
  }

  private static List<Long> numbers(List<BufferFile> l) {
    return l.stream().map(BufferFile::fileNumber).toList();
  }

  @Test
  void aBufferedMergeIsOneRecordAndRecoveryReplaysTheBuffer(@TempDir Path dir) throws Exception {
    FileMeta upper = file(5, "a", "m");
    FileMeta lower = file(7, "c", "z");
    FileMeta output = file(6, "a", "z");
    try (VersionSet vs = VersionSet.create(LocalFs.INSTANCE, dir, CMP, 4, "lsbm", false, EMPTY)) {
      vs.markFileNumberUsed(10);
      vs.logAndApply(new VersionEdit().add(1, upper).add(2, lower));
      VersionEdit edit = new VersionEdit().remove(1, 5).remove(2, 7).add(2, output)
          .bufferChange(BufferedMerge.plan(1, List.of(upper), List.of(lower), List.of(output), true, Map.of(), 2000, 2000,
              CONFIG));
      Version v = vs.logAndApply(edit);
      assertEquals(List.of(5L, 7L), CompactionBuffer.of(v).allFiles().stream().map(FileMeta::fileNumber).sorted().toList());
      assertTrue(v.files(1).isEmpty());
      assertEquals(List.of(new VersionEdit.BufferRecord(2, 7), new VersionEdit.BufferRecord(2, 5)), edit.bufferAdded());
      VersionEdit decoded = VersionEdit.decode(edit.encode());
      assertEquals(edit.bufferAdded(), decoded.bufferAdded());
      assertEquals(List.of(5L, 7L), numbers(decoded.bufferDiff().sourcesSet().get(6L)));
      assertTrue(decoded.toString().contains("buffer"), decoded.toString());
      assertTrue(vs.liveFiles().containsAll(List.of(5L, 6L, 7L)), "the buffer keeps files 5 and 7 live: " + vs.liveFiles());
    }
    for (int reopen = 0; reopen < 2; reopen++) { // the second replays the new manifest's snapshot
      try (VersionSet vs = VersionSet.recover(LocalFs.INSTANCE, dir, CMP, 4, EMPTY)) {
        assertEquals(List.of(5L, 7L), CompactionBuffer.of(vs.current()).allFiles().stream().map(FileMeta::fileNumber).sorted().toList(),
            "reopen " + reopen);
        assertEquals(List.of(5L, 7L), numbers(CompactionBuffer.of(vs.current()).sourcesCovering(6, "d".getBytes(StandardCharsets.UTF_8))));
        assertEquals("m", new String(CompactionBuffer.of(vs.current()).sources(6).get(0).hi(), StandardCharsets.UTF_8),
            "the narrowed range survives");
        assertEquals(List.of(output), vs.current().files(2));
        assertTrue(vs.liveFiles().containsAll(List.of(5L, 7L)), "recovered buffer files stay live");
      }
    }
    try (VersionSet vs = VersionSet.recover(LocalFs.INSTANCE, dir, CMP, 4, EMPTY)) {
      vs.logAndApply(new VersionEdit().bufferChange(BufferChange.removing(List.of(new BufferDiff.Removal(2, 5)), CONFIG)));
    }
    try (VersionSet vs = VersionSet.recover(LocalFs.INSTANCE, dir, CMP, 4, EMPTY)) {
      assertEquals(List.of(7L), CompactionBuffer.of(vs.current()).allFiles().stream().map(FileMeta::fileNumber).toList(),
          "the trimmed file stays removed");
      assertTrue(!CompactionBuffer.of(vs.current()).contains(5) && CompactionBuffer.of(vs.current()).sources(6).size() == 2,
          "and stays in the list as a marker");
      assertTrue(!vs.liveFiles().contains(5L));
      assertNull(CompactionBuffer.of(vs.current()).sourcesCovering(7, "d".getBytes(StandardCharsets.UTF_8)));
    }
  }
}
