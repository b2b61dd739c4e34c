package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.FaultInjectingFs;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKey;
import io.iam.core.key.ValueType;
import io.iam.core.option.OptionValues;
import io.iam.core.table.MSTableWriter;
import io.iam.core.table.SequenceWriter;
import io.iam.core.table.TableOptions;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kills a loading child JVM with SIGKILL at random moments (during flushes and compactions, given
 * its tiny memtables), then reopens the store: every acknowledged synced batch must be there with
 * the right values, no batch may be half there, and the tree must verify. Runs on every tree;
 * {@code -Diam.crash.kills=N} runs N rounds in all, split among the trees (200 in the long
 * profile).
 *
 * <p>For the node trees, whose files take appended sequences in place, two more cases stop the
 * store exactly in the middle of an append to an existing node file, and check that the file
 * stays readable and takes later appends.
 */
@Timeout(600)
class CrashRecoveryTest {

  private static final int KILLS = Integer.getInteger("iam.crash.kills", 20);
  private static final int KILLS_PER_TREE = Math.max(1, Math.round(KILLS / (float) StoreModelTest.TREES.size()));

  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.ALL_TREES)
  void acknowledgedSyncedWritesSurviveSigkill(String tree, @TempDir Path dir) throws Exception {
    long seed = Long.getLong("iam.crash.seed", 77);
    SplittableRandom random = new SplittableRandom(seed);
    List<long[]> acknowledged = new ArrayList<>(); // [first, last] per round
    int depth = 0;
    for (int round = 0; round < KILLS_PER_TREE; round++) {
      long first = round * 1_000_000L;
      long last = runAndKill(dir, tree, first, 150 + random.nextInt(600));
      acknowledged.add(new long[] {first, last});
      depth = check(dir, tree, acknowledged, "tree=" + tree + " after kill " + (round + 1) + " (seed " + seed + ")");
    }
    long total = acknowledged.stream().mapToLong(r -> r[1] - r[0] + 1).sum();
    assertTrue(total > KILLS_PER_TREE, "the child acknowledged too few batches to test anything: " + total);
    if (!StoreModelTest.leveledFiles(tree)) {
      assertTrue(depth >= 2, "tree=" + tree + ": the kills never met node flushes, the tree has depth " + depth);
    }
    if (tree.equals("minmax")) {
      assertTrue(depth > 0, "tree=minmax: no bucket was ever written (the value returned is the bucket count)");
    }
  }

  /** Runs the child until {@code millis} after it opened the store, kills it, returns the last acknowledged batch. */
  private static long runAndKill(Path dir, String tree, long first, long millis) throws Exception {
    return KilledChild.runAndKill(CrashWorkload.class, List.of(dir.toString(), Long.toString(first), tree), first, millis);
  }

  /** Checks the store after a kill; returns its depth (0 for a leveled tree), for minmax its bucket count. */
  private static int check(Path dir, String tree, List<long[]> rounds, String at) throws Exception {
    try (IamStore store = IamStore.open(dir, StoreModelTest.smallOptions(tree, 2))) {
      for (long[] r : rounds) {
        for (long i = r[0]; i <= r[1]; i++) {
          for (String part : new String[] {"a", "b", "c"}) {
            byte[] v = store.get(CrashWorkload.key(i, part));
            assertNotNull(v, at + ": acknowledged batch " + i + part + " lost");
            assertArrayEquals(CrashWorkload.value(i, part), v, at + ": batch " + i + part + " has a wrong value");
          }
        }
        // Batches after the last acknowledged one may or may not have made it, but only whole.
        for (long i = r[1] + 1; i < r[1] + 50; i++) {
          int present = 0;
          for (String part : new String[] {"a", "b", "c"}) {
            byte[] v = store.get(CrashWorkload.key(i, part));
            if (v != null) {
              assertArrayEquals(CrashWorkload.value(i, part), v, at + ": unacknowledged batch " + i + part + " is wrong");
              present++;
            }
          }
          assertTrue(present == 0 || present == 3, at + ": batch " + i + " is half there (" + present + " of 3)");
        }
      }
      // tree=minmax: until its write cache first fills, every write is only in the cache and the
      // logs, so there may be no bucket to verify yet (the end of the test asks for buckets).
      assertTrue(store.verify() > 0 || tree.equals("minmax"), at + ": verify found no entries");
      long keys = 0;
      try (StoreIterator it = store.iterator()) {
        for (it.seekToFirst(); it.valid(); it.next()) {
          keys++;
        }
      }
      long acked = rounds.stream().mapToLong(r -> 3 * (r[1] - r[0] + 1)).sum();
      assertTrue(keys >= acked, at + ": scan saw " + keys + " keys, fewer than the " + acked + " acknowledged");
      assertEquals(0, keys % 3, at + ": a batch is half visible to a scan");
      if (tree.equals("minmax")) { // the recovered writes go through the cache: buckets, and all still there
        store.flushAndSettle();
        store.verify(); // throws on a damaged bucket
        try (StoreIterator it = store.iterator()) {
          long again = 0;
          for (it.seekToFirst(); it.valid(); it.next()) {
            again++;
          }
          assertEquals(keys, again, at + ": keys after the recovered memtables were drained");
        }
        return store.levels().get(0).size();
      }
      return store.depth();
    }
  }

  // ---------------------------------------------------------------- node trees: a crash in an append

  /** Where {@link AppendCrash} stops the store, in an append to an existing node file. */
  enum CrashPoint {
    /** After the first block of the new sequence reached the file, before its footer. */
    DURING_DATA,
    /** Right after the footer committing the new sequence was synced, before the manifest records it. */
    AFTER_FOOTER
  }

  /**
   * A fault rule that "kills" the store in the first append to node file {@code file}: from the
   * crash on, every file operation fails without effect, so the files hold what a SIGKILL at that
   * moment would leave (the page cache survives a process). An existing file is written only by
   * appends; new data goes to new files.
   */
  private static final class AppendCrash implements BiPredicate<FaultInjectingFs.Op, Path> {
    private final long file;
    private final CrashPoint point;
    private int writes;
    private int syncs;
    private boolean dying;
    private volatile boolean crashed;

    AppendCrash(long file, CrashPoint point) {
      this.file = file;
      this.point = point;
    }

    @Override
    public synchronized boolean test(FaultInjectingFs.Op op, Path path) {
      if (crashed || dying) {
        crashed = true;
        return true;
      }
      if (StoreFiles.tableNumber(path).orElse(-1) != file) {
        return false;
      }
      if (op == FaultInjectingFs.Op.WRITE && point == CrashPoint.DURING_DATA && ++writes == 2) {
        crashed = true;
        return true;
      }
      if (op == FaultInjectingFs.Op.SYNC && point == CrashPoint.AFTER_FOOTER && ++syncs == 2) {
        dying = true; // the sync of the data, then this one of the footer: it lands, then the store dies
      }
      return false;
    }

    boolean crashed() {
      return crashed;
    }
  }

  static Stream<Arguments> appendCrashes() {
    return StoreModelTest.appendingTrees().flatMap(tree -> Stream.of(CrashPoint.values()).map(p -> Arguments.of(tree, p)));
  }

  /**
   * Stops the store in the middle of an append to an existing level-1 node file, with the new
   * sequence's data half written, or with its footer committed but the manifest edit not written
   * (the file then holds a sequence the manifest does not record). After reopening, every
   * acknowledged write reads back, the tree verifies, and the recovered log is flushed into the
   * same file again: the unrecorded sequence is rolled back, not kept beside the new one.
   */
  @ParameterizedTest(name = "tree={0}, crash {1}")
  @MethodSource("appendCrashes")
  void aCrashInTheMiddleOfAnAppendLeavesTheNodeFileUsable(String tree, CrashPoint point, @TempDir Path dir)
      throws Exception {
    String at = "tree=" + tree + ", crash " + point;
    OptionValues options = StoreModelTest.smallOptions(tree, 1);
    FaultInjectingFs fs = new FaultInjectingFs(LocalFs.INSTANCE);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    NodeMeta node;
    NodeMeta recorded;
    try (IamStore store = IamStore.open(fs, dir, options, BytewiseComparator.INSTANCE)) {
      node = TestStores.settledTree(store, model);
      AppendCrash crash = new AppendCrash(node.file().fileNumber(), point);
      fs.failWhen(crash);
      TestStores.overwrite(store, model, node, "second");
      // The flush appends to the node's file and crashes; the settle then ends when the store closes.
      TestStores.settleInBackground(store);
      assertTrue(TestStores.await(crash::crashed, 20), at + ": the flush did not append to " + node + ":\n" + store.describe());
      recorded = TestStores.holding(store, node.file().fileNumber());
      assertEquals(node, recorded, at + ": the manifest changed the node whose append crashed");
    }
    long file = node.file().fileNumber();
    int expectedOnDisk = node.sequences() + (point == CrashPoint.AFTER_FOOTER ? 1 : 0);
    assertEquals(expectedOnDisk, TestStores.sequencesOnDisk(dir, file),
        at + ": sequences committed in the footer of " + file + " (the manifest records " + node.sequences() + ")");
    try (IamStore store = IamStore.open(dir, options)) {
      StoreModelTest.fullCheck(store, model, at + ", right after reopening");
      assertAppendsResume(store, dir, node, model, at); // the recovered log is flushed into the node again
    }
    try (IamStore store = IamStore.open(dir, options)) {
      StoreModelTest.fullCheck(store, model, at + ", after a second reopen");
    }
  }

  /**
   * The state a crash right after an append's footer leaves, made by hand: a level-1 node's file
   * gets a sequence the manifest does not record, holding newer versions of the node's keys (and
   * a new key) that must never be read. Reads and verify ignore it; the next flush into the node
   * appends to the same file in its place.
   */
  @ParameterizedTest(name = "tree={0}")
  @MethodSource(StoreModelTest.APPENDING_TREES)
  void aSequenceTheManifestDoesNotRecordIsNeverReadAndIsReplacedByTheNextAppend(String tree, @TempDir Path dir)
      throws Exception {
    String at = "tree=" + tree + ", unrecorded sequence";
    OptionValues options = StoreModelTest.smallOptions(tree, 1);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    NodeMeta node;
    long lastSequence;
    try (IamStore store = IamStore.open(dir, options)) {
      node = TestStores.settledTree(store, model);
      try (Snapshot s = store.snapshot()) {
        lastSequence = s.sequence();
      }
    }
    long file = node.file().fileNumber();
    TreeMap<byte[], byte[]> inNode = TestStores.inRange(model, node);
    try (MSTableWriter w = MSTableWriter.openForAppend(LocalFs.INSTANCE, StoreFiles.table(dir, file), file,
        TableOptions.DEFAULT, TestStores.CMP)) {
      SequenceWriter seq = w.beginSequence();
      long sequence = lastSequence + 1; // newer than every version the node holds
      for (byte[] k : inNode.keySet()) {
        seq.add(InternalKey.encode(k, sequence, ValueType.PUT), TestStores.bytes("unrecorded"));
        if (Arrays.equals(k, inNode.firstKey())) {
          byte[] extra = TestStores.bytes(new String(k, StandardCharsets.UTF_8) + "+unrecorded");
          seq.add(InternalKey.encode(extra, sequence, ValueType.PUT), TestStores.bytes("unrecorded"));
        }
      }
      seq.finish();
    }
    assertEquals(node.sequences() + 1, TestStores.sequencesOnDisk(dir, file));
    try (IamStore store = IamStore.open(dir, options)) {
      // Writes elsewhere move the read sequence past the unrecorded versions, so that reading
      // them would show.
      for (byte[] k : model.headMap(node.lo(), false).keySet().stream().limit(5).toList()) {
        TestStores.put(store, model, k, "elsewhere");
      }
      for (byte[] k : model.tailMap(node.hi(), false).keySet().stream().limit(5).toList()) {
        TestStores.put(store, model, k, "elsewhere");
      }
      StoreModelTest.fullCheck(store, model, at);
      assertTrue(store.verify() > 0);
      TestStores.overwrite(store, model, node, "third");
      assertAppendsResume(store, dir, node, model, at);
    }
    try (IamStore store = IamStore.open(dir, options)) {
      StoreModelTest.fullCheck(store, model, at + ", after reopening");
    }
  }

  /**
   * Settles the store and checks that the writes pending for {@code node} were appended to its
   * file in place: the file is still the node's, it records more sequences than before, its
   * footer commits exactly those (nothing unrecorded is left), and the data and tree check out.
   */
  private static void assertAppendsResume(IamStore store, Path dir, NodeMeta node, TreeMap<byte[], byte[]> model,
      String at) throws Exception {
    store.flushAndSettle();
    long file = node.file().fileNumber();
    NodeMeta after = TestStores.holding(store, file);
    assertNotNull(after, at + ": the flush did not append to " + file + ":\n" + store.describe());
    assertEquals(node.id(), after.id(), at + ": another node holds " + file);
    assertTrue(after.sequences() > node.sequences(), at + ": " + file + " took no append: " + after);
    assertEquals(after.sequences(), TestStores.sequencesOnDisk(dir, file),
        at + ": the footer of " + file + " commits sequences the manifest does not record");
    StoreModelTest.fullCheck(store, model, at + ", after appending to " + file);
    assertTrue(store.verify() > 0, at);
  }
}
