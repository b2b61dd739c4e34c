package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.FaultInjectingFs.Op;
import io.iam.core.fs.LocalFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The syncs a commit makes. A sequence appended to a file that may already be named elsewhere is
 * synced before the footer that names it is written, then the footer is synced: a crash leaves
 * either the old footer or a new one whose data is on disk. The first sequence of a file the
 * writer created makes one sync after its footer: nothing can name the file before that commit.
 */
class MSTableSyncTest {

  @TempDir
  Path dir;

  @Test
  void theFirstCommitOfANewFileSyncsOnceAfterItsFooter() throws IOException {
    for (long capacity : new long[] {0, 4 << 20}) {
      List<Op> ops = new ArrayList<>();
      FaultInjectingFs fs = recording(ops);
      Path f = dir.resolve("new-" + capacity + ".mst");
      try (MSTableWriter w = MSTableWriter.create(fs, f, 3, capacity, TableOptions.DEFAULT, CMP)) {
        ops.clear(); // the open, and a capacity file's empty footer
        TableTestData.random(1, 2_000, 0, 1, 100).writeTo(w);
      }
      assertEquals(1, count(ops, Op.SYNC), "capacity " + capacity + ": " + ops);
      assertEquals(Op.SYNC, ops.get(ops.size() - 1), "capacity " + capacity + ": the sync comes last: " + ops);
    }
  }

  @Test
  void anAppendSyncsItsDataBeforeItWritesTheFooter() throws IOException {
    List<Op> ops = new ArrayList<>();
    FaultInjectingFs fs = recording(ops);
    Path f = dir.resolve("000003.mst");
    try (MSTableWriter w = MSTableWriter.create(fs, f, 3, 4 << 20, TableOptions.DEFAULT, CMP)) {
      TableTestData.random(1, 2_000, 0, 1, 100).writeTo(w);
      ops.clear();
      TableTestData.random(2, 2_000, 1L << 32, 1, 100).writeTo(w); // the same writer, after its first commit
    }
    assertEquals(List.of(Op.SYNC, Op.WRITE, Op.SYNC), tail(ops, 3), "second sequence: " + ops);
    assertEquals(2, count(ops, Op.SYNC), ops.toString());

    ops.clear();
    try (MSTableWriter w = MSTableWriter.openForAppend(fs, f, 3, TableOptions.DEFAULT, CMP)) {
      TableTestData.random(3, 2_000, 2L << 32, 1, 100).writeTo(w);
    }
    assertEquals(List.of(Op.SYNC, Op.WRITE, Op.SYNC), tail(ops, 3), "reopened: " + ops);
    assertEquals(2, count(ops, Op.SYNC), ops.toString());
  }

  /**
   * A writer's syncs are reported to its {@link SyncListener} (NodeTree lets another writer encode
   * meanwhile), and the footer lock, which readers take, is held for the footer's write only: held
   * across a sync it made every reader of the file's lock stripe wait for the disk, and with {@code
   * node-flush-writers=1} it deadlocked a writer waiting for that stripe against one waiting to
   * encode again after its sync.
   */
  @Test
  void syncsAreReportedAndTheFooterLockCoversOnlyTheFootersWrite() throws IOException {
    java.util.concurrent.locks.ReentrantLock footerLock = new java.util.concurrent.locks.ReentrantLock();
    List<String> events = new ArrayList<>();
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    fs.failWhen((op, path) -> {
      events.add(op + (footerLock.isHeldByCurrentThread() ? " locked" : ""));
      return false;
    });
    SyncListener listener = new SyncListener() {
      @Override
      public void beforeSync() {
        events.add("before" + (footerLock.isHeldByCurrentThread() ? " locked" : ""));
      }

      @Override
      public void afterSync() {
        events.add("after");
      }
    };
    Path f = dir.resolve("000004.mst");
    try (MSTableWriter w = MSTableWriter.create(fs, f, 4, 4 << 20, TableOptions.DEFAULT, CMP)) {
      TableTestData.random(1, 2_000, 0, 1, 100).writeTo(w);
    }
    try (MSTableWriter w = MSTableWriter.openForAppend(fs, f, 4, TableOptions.DEFAULT, CMP)) {
      w.setSyncListener(listener);
      w.setFooterLock(footerLock);
      events.clear();
      TableTestData.random(2, 2_000, 1L << 32, 1, 100).writeTo(w);
    }
    assertEquals(List.of("before", "SYNC", "after", "WRITE locked", "before", "SYNC", "after"), events.subList(
        events.size() - 7, events.size()), events.toString());
    assertEquals(false, footerLock.isLocked());
  }

  private static FaultInjectingFs recording(List<Op> ops) {
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    fs.failWhen((op, path) -> {
      ops.add(op);
      return false;
    });
    return fs;
  }

  private static long count(List<Op> ops, Op op) {
    return ops.stream().filter(o -> o == op).count();
  }

  private static List<Op> tail(List<Op> ops, int n) {
    return List.copyOf(ops.subList(ops.size() - n, ops.size()));
  }
}
