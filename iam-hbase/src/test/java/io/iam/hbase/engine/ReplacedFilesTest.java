package io.iam.hbase.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A replaced file is offered for closing only once HBase is done with the step that replaced it. */
class ReplacedFilesTest {

  private final AtomicLong now = new AtomicLong(1_000);
  private final ReplacedFiles<String> files = new ReplacedFiles<>(now::get);

  private static void onThread(Runnable r) throws InterruptedException {
    Thread t = new Thread(r, "compaction");
    t.start();
    t.join();
  }

  @Test
  void aFileIsClosableOnceTheThreadThatReplacedItStartsAnotherStep() throws Exception {
    files.stepStarting();
    files.add(List.of("a", "b"));
    assertEquals(List.of(), files.closable(), "HBase may still read them: their step has not ended");
    onThread(files::stepStarting); // another compaction thread's step says nothing of this one
    assertEquals(List.of(), files.closable());
    files.stepStarting();
    assertEquals(List.of("a", "b"), files.closable());
  }

  @Test
  void aFileIsClosableAfterTheGraceEvenIfItsThreadRunsNoFurtherStep() throws Exception {
    onThread(() -> files.add(List.of("a")));
    now.addAndGet(ReplacedFiles.GRACE_NANOS - 1);
    assertEquals(List.of(), files.closable());
    now.incrementAndGet();
    assertEquals(List.of("a"), files.closable());
  }

  @Test
  void archivedFilesAreForgottenAndClosingTheStoreTakesThemAll() {
    files.add(List.of("a", "b", "c"));
    files.stepStarting();
    files.remove(List.of("b"));
    assertEquals(List.of("a", "c"), files.closable());
    files.add(List.of("d"));
    assertEquals(List.of("a", "c", "d"), files.clear());
    assertEquals(List.of(), files.closable());
  }
}
