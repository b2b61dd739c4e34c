package io.iam.core.manifest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.key.ValueType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pinning versions without a lock: a pinned version's files stay live through later edits and
 * purges; a retired version the purge has released can no longer be pinned, so a reader that read
 * it as current just before an edit pins the newer one instead.
 */
class VersionPinTest {

  private static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private static FileMeta file(long number) {
    return new FileMeta(number, 1000, 1, 10, InternalKey.encode("a".getBytes(StandardCharsets.UTF_8), 9, ValueType.PUT),
        InternalKey.encode("z".getBytes(StandardCharsets.UTF_8), 8, ValueType.PUT), 8, 9);
  }

  /** Replaces level 1's only file, {@code old}, by file {@code next}. */
  private static VersionEdit replace(long old, long next) {
    return new VersionEdit().remove(1, old).add(1, file(next));
  }

  @Test
  void aPinnedVersionKeepsItsFilesAndAReleasedOneCannotBePinned(@TempDir Path dir) throws Exception {
    try (VersionSet vs = VersionSet.create(LocalFs.INSTANCE, dir, CMP, 4)) {
      vs.markFileNumberUsed(100);
      vs.logAndApply(new VersionEdit().add(1, file(1)));
      Version pinned = vs.pinCurrent();
      vs.logAndApply(replace(1, 2));
      assertEquals(Set.of(1L, 2L), vs.liveFiles(), "the pinned, retired version keeps file 1 live");
      pinned.unref();
      Version read = vs.current(); // as a reader that read current just before the next edit
      vs.logAndApply(replace(2, 3));
      assertEquals(Set.of(3L), vs.liveFiles(), "the purge released both retired versions");
      assertFalse(read.tryRef(), "a released version cannot be pinned: its files may be gone");
      assertFalse(pinned.tryRef());
      Version now = vs.pinCurrent();
      assertSame(vs.current(), now, "pinCurrent pins the newer version instead");
      assertEquals(3L, now.files(1).get(0).fileNumber());
      now.unref();
      assertThrows(IllegalStateException.class, now::unref, "an unbalanced release is a bug");
    }
  }

  @Test
  void readersPinningWhileEditsAndPurgesRunAlwaysSeeLiveFiles(@TempDir Path dir) throws Exception {
    try (VersionSet vs = VersionSet.create(LocalFs.INSTANCE, dir, CMP, 4)) {
      vs.markFileNumberUsed(1_000_000);
      vs.logAndApply(new VersionEdit().add(1, file(1)));
      AtomicBoolean done = new AtomicBoolean();
      AtomicLong pins = new AtomicLong();
      ExecutorService readers = Executors.newFixedThreadPool(2);
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        running.add(readers.submit(() -> {
          while (!done.get()) {
            Version v = vs.pinCurrent();
            long number = v.files(1).get(0).fileNumber();
            Set<Long> live = vs.liveFiles(); // the purge's view: a pinned version's file must be in it
            v.unref();
            if (!live.contains(number)) {
              throw new AssertionError("file " + number + " of a pinned version is not live: " + live);
            }
            pins.incrementAndGet();
          }
          return null;
        }));
      }
      try {
        for (long n = 1; n < 600; n++) {
          vs.logAndApply(replace(n, n + 1));
          vs.liveFiles();
        }
      } finally {
        done.set(true);
        readers.shutdown();
      }
      for (Future<?> f : running) {
        f.get(); // rethrows a reader's AssertionError
      }
      assertTrue(pins.get() > 600, "readers pinned while the edits ran: " + pins.get());
      assertEquals(Set.of(600L), vs.liveFiles(), "with no pins left, only the current file is live");
    }
  }
}
