package io.iam.core.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import io.iam.core.tree.lsbm.BufferedMerge;
import io.iam.core.tree.lsbm.LsbmConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tree=lsbm and the manifest: a compaction's edit moves its input from C_i to B_{i+1} in one
 * record, the record names the buffer files, buffer files stay live, and recovery drops the
 * buffer (the files' sources lists are not persisted, so a recovered buffer could not be trusted) so the files
 * become obsolete rather than resurrected.
 */
class LsbmManifestTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
  private static final LsbmConfig CONFIG = new LsbmConfig(new long[] {0, 1 << 20, 10 << 20, 100 << 20}, 1.0, 0.1, 0.5);

  private static FileMeta file(long number, String lo, String hi) {
    return new FileMeta(number, 1000, 1, 10, InternalKey.encode(lo.getBytes(StandardCharsets.UTF_8), 9, ValueType.PUT),
        InternalKey.encode(hi.getBytes(StandardCharsets.UTF_8), 8, ValueType.PUT), 8, 9);
  }

  @Test
  void aBufferedMergeIsOneRecordAndRecoveryDropsTheBuffer(@TempDir Path dir) throws Exception {
    FileMeta upper = file(5, "a", "m");
    FileMeta output = file(6, "a", "m");
    try (VersionSet vs = VersionSet.create(LocalFs.INSTANCE, dir, CMP, 4, "lsbm", false)) {
      vs.markFileNumberUsed(10);
      vs.logAndApply(new VersionEdit().add(1, upper));
      VersionEdit edit = new VersionEdit().remove(1, 5).add(2, output)
          .bufferChange(BufferedMerge.plan(1, List.of(upper), List.of(), List.of(output), true, java.util.Map.of(), 1000, 1000,
              CONFIG));
      Version v = vs.logAndApply(edit);
      assertEquals(List.of(upper), v.buffer().allFiles());
      assertTrue(v.files(1).isEmpty());
      assertEquals(List.of(new VersionEdit.BufferRecord(2, 5)), edit.bufferAdded());
      VersionEdit decoded = VersionEdit.decode(edit.encode());
      assertEquals(edit.bufferAdded(), decoded.bufferAdded());
      assertTrue(decoded.toString().contains("buffer"), decoded.toString());
      assertTrue(vs.liveFiles().containsAll(List.of(5L, 6L)), "the buffer keeps file 5 live: " + vs.liveFiles());
    }
    try (VersionSet vs = VersionSet.recover(LocalFs.INSTANCE, dir, CMP, 4)) {
      assertTrue(vs.current().buffer().isEmpty(), "recovery drops the buffer");
      assertEquals(List.of(output), vs.current().files(2));
      assertFalse(vs.liveFiles().contains(5L), "the dropped buffer file is obsolete");
    }
  }
}
