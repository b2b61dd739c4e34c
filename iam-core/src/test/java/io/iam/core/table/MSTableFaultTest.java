package io.iam.core.table;

import static io.iam.core.table.TableTestData.CMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.FaultInjectingFs.Op;
import io.iam.core.fs.LocalFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A failed write or sync during an append never harms the sequences already committed. */
class MSTableFaultTest {

  @TempDir
  Path dir;

  /**
   * Finish of a sequence smaller than the write buffer performs: write data (1), write metadata
   * (2), sync (1), write footer (3), sync (2). Each of them fails in turn.
   */
  @ParameterizedTest(name = "{0} #{1} during finish")
  @CsvSource({"WRITE, 1", "WRITE, 2", "WRITE, 3", "SYNC, 1", "SYNC, 2"})
  void failedFinishLeavesPreviousSequencesIntact(Op op, int nth) throws IOException {
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    Path f = dir.resolve("000003.mst");
    List<TableTestData> datas = new ArrayList<>();
    List<SequenceHandle> handles = new ArrayList<>();
    try (MSTableWriter w = MSTableWriter.create(fs, f, 3, 4 << 20, TableOptions.DEFAULT, CMP)) {
      for (int i = 0; i < 2; i++) {
        datas.add(TableTestData.random(i, 3_000, (long) i << 32, 1, 100));
        handles.add(datas.get(i).writeTo(w));
      }
    }

    TableTestData failing = TableTestData.random(77, 300, 5L << 32, 0, 100);
    try (MSTableWriter w = MSTableWriter.openForAppend(fs, f, 3, TableOptions.DEFAULT, CMP)) {
      SequenceWriter s = w.beginSequence();
      for (int i = 0; i < failing.size(); i++) {
        s.add(failing.keys.get(i), failing.values.get(i));
      }
      AtomicInteger seen = new AtomicInteger();
      fs.failWhen((o, p) -> o == op && seen.incrementAndGet() == nth);
      assertThrows(FaultInjectingFs.InjectedFault.class, s::finish);
      assertEquals(1, fs.injected());
      fs.heal();
      assertEquals(2, w.sequenceCount(), "the failed sequence was not committed");
      IOException refused = assertThrows(IOException.class, w::beginSequence, "a failed writer refuses more");
      assertTrue(refused.getMessage().contains("failed"));
    }

    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 3, new NoCacheForTests(), TableOptions.DEFAULT,
        CMP)) {
      assertEquals(handles, r.sequences());
      for (int i = 0; i < 2; i++) {
        datas.get(i).assertIteratesExactly(r.sequence(i));
      }
    }

    // The file stays appendable: the half-written sequence's bytes in the hole are overwritten.
    TableTestData next = TableTestData.random(78, 2_000, 6L << 32, 1, 100);
    try (MSTableWriter w = MSTableWriter.openForAppend(fs, f, 3, TableOptions.DEFAULT, CMP)) {
      handles.add(next.writeTo(w));
      datas.add(next);
    }
    try (MSTableReader r = MSTableReader.open(LocalFs.INSTANCE, f, 3, new NoCacheForTests(), TableOptions.DEFAULT,
        CMP)) {
      assertEquals(handles, r.sequences());
      for (int i = 0; i < 3; i++) {
        datas.get(i).assertIteratesExactly(r.sequence(i));
      }
    }
  }

  @ParameterizedTest(name = "fault on data write #{0} while adding")
  @CsvSource({"1", "2"})
  void failedDataWriteWhileAddingFailsTheSequenceOnly(int nth) throws IOException {
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    Path f = dir.resolve("000004.mst");
    TableTestData first = TableTestData.random(1, 2_000, 1, 0, 100);
    SequenceHandle h0;
    try (MSTableWriter w = MSTableWriter.create(fs, f, 4, 4 << 20, TableOptions.DEFAULT, CMP)) {
      h0 = first.writeTo(w);
      AtomicInteger seen = new AtomicInteger();
      fs.failWhen((o, p) -> o == Op.WRITE && seen.incrementAndGet() == nth);
      // Large enough to spill the 64 KiB write buffer several times while adding.
      TableTestData big = TableTestData.random(2, 20_000, 2L << 32, 0, 100);
      assertThrows(FaultInjectingFs.InjectedFault.class, () -> big.writeTo(w));
      fs.heal();
      assertEquals(1, w.sequenceCount());
    }
    try (MSTableReader r = MSTableReader.open(fs, f, 4, new NoCacheForTests(), TableOptions.DEFAULT, CMP)) {
      assertEquals(List.of(h0), r.sequences());
      first.assertIteratesExactly(r.sequence(0));
    }
  }
}
