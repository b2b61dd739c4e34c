package io.iam.core.engine.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.engine.IamStore;
import io.iam.core.engine.StoreOptions;
import io.iam.core.fs.ForwardingFs;
import io.iam.core.fs.ForwardingFsFile;
import io.iam.core.fs.FsFile;
import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.tree.iam.Mode;
import io.iam.core.tree.iam.Node;
import io.iam.core.tree.iam.TreeShape;
import io.iam.core.tree.iam.TreeSimResult;
import io.iam.core.tree.iam.TreeSimulator;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The embedded engine makes the kernel's decisions: the same memtable flushes go into a store with
 * a node tree ({@code tree=lsa}, or {@code tree=iam} with m and k fixed) and into the kernel's
 * {@link TreeSimulator}, and after every flush, once the store has settled as the simulator
 * settles, both trees are equal: their depth, the nodes of every level in key order, and each
 * node's records, sorted sequences and key range. A difference in how the engine flushes a
 * memtable, plans, appends, merges, cuts a full leaf, splits, moves, combines, rebalances ranges,
 * adds a level or orders its jobs shows up as the first flush after which the two differ. The
 * store runs one background job at a time and settles after every flush ({@link
 * IamStore#flushAndSettle}), so it takes the steps in the simulator's order.
 *
 * <p>Where the two differ by design, the test compares what is meant to agree:
 *
 * <ul>
 *   <li><b>Sizes.</b> The engine sizes a node by its file's bytes, the simulator by its records. A
 *       record here is one key with a value of {@value #VALUE_BYTES} bytes, and C_t ({@code
 *       memtable-size}) lies between the file bytes of {@value #RECORDS} − 1 and of {@value
 *       #RECORDS} such records, so a node is full in the engine exactly when it holds {@value
 *       #RECORDS} records (one flush's worth), as in the simulator with one byte a record. The test
 *       compares records and checks, for every node, that the engine's fullness is the
 *       simulator's and that the file's bytes are its records' within a file's and its sequences'
 *       overhead.
 *   <li><b>Key ranges.</b> The kernel plans in ranks. The simulator keeps the kernel's integer
 *       bounds (a bound one past a key is an integer no record holds); the engine maps each rank
 *       back to a key it knows, and its closed byte ranges cannot end just below the next node's
 *       first key. So a range is compared as the written keys it covers.
 *   <li><b>Where a new key lands.</b> For the same reason the two may route a record that falls
 *       between keys already in the tree differently. Between two leaves, the simulator gives it
 *       to the nearer by numeric distance, the engine by rank. Two internal nodes the kernel made
 *       adjacent stay adjacent in the simulator, while in the engine a gap remains between them
 *       (the last key of one, the first known key of the other); a new key in that gap makes them
 *       no longer adjacent, and a tie between equally balanced boundaries is then broken by
 *       another rule. So each flush here writes half its keys ascending from the bottom of the key
 *       space and half descending from the top: new keys land only between the two fronts, as
 *       many beside each, where the nearer leaf is the same by distance as by rank. Every
 *       operation runs: appends, merges (iam), merge-and-cuts, splits, moves, combines and new
 *       levels (checked).
 *   <li><b>Depth.</b> The engine grows at most to {@code max-levels}; it is set high enough
 *       never to bind.
 *   <li><b>Moves past a level's sequence cap.</b> The engine rewrites as one sequence a node that
 *       moves into a level whose cap it exceeds, unless the cache can keep its sequences; the
 *       simulator moves it as it is. This workload makes none (checked).
 * </ul>
 *
 * <p>The store writes through a file system that skips syncs: durability is tested elsewhere,
 * and the syncs of a few thousand small jobs would take most of the time.
 */
class EngineMatchesSimulatorTest {

  private static final int FANOUT = 3;
  /** Records a memtable flush writes: C_t, a node's capacity, in records. */
  private static final int RECORDS = 10;
  private static final int VALUE_BYTES = 8000;
  /** Bytes a record takes in a table file: its value, its 8-byte key and trailer, and its index and block framing. */
  private static final long RECORD_FILE_BYTES = VALUE_BYTES + 50;
  /** What a table file adds to its records' bytes beyond {@link #SEQUENCE_OVERHEAD} a sequence. */
  private static final long FILE_OVERHEAD = 256;
  private static final long SEQUENCE_OVERHEAD = 128;
  /** C_t in bytes: above the file of RECORDS − 1 records in many sequences, below that of RECORDS records. */
  private static final long CAPACITY = 78 << 10;
  private static final int FLUSHES = 300;

  @ParameterizedTest(name = "tree={0}")
  @ValueSource(strings = {"lsa", "iam"})
  void everyFlushLeavesTheSimulatorsTree(String tree, @TempDir Path dir) throws Exception {
    boolean iam = tree.equals("iam");
    Mode mode = iam ? Mode.iam(2, 2) : Mode.lsa();
    TreeSimulator simulator = new TreeSimulator(FANOUT, RECORDS, 1, mode, 1);
    TreeSet<Long> written = new TreeSet<>();
    Map<String, String> options = new HashMap<>(Map.of("tree", tree, "fanout", String.valueOf(FANOUT),
        "memtable-size", String.valueOf(CAPACITY), "background-threads", "1", "max-levels", "20"));
    if (iam) {
      options.put("mixed-level", String.valueOf(mode.m()));
      options.put("mixed-level-sequences", String.valueOf(mode.k()));
    }
    try (IamStore store = IamStore.open(new NoSyncFs(), dir, StoreOptions.parse(options), BytewiseComparator.INSTANCE)) {
      for (int f = 0; f < FLUSHES; f++) {
        long[] keys = flushKeys(f);
        for (long k : keys) {
          store.put(ByteBuffer.allocate(Long.BYTES).putLong(k).array(), new byte[VALUE_BYTES]);
          written.add(k);
        }
        store.flushAndSettle();
        simulator.flush(keys);
        assertEquals(describe(simulator.shape(), written), describe(store, written),
            "tree " + tree + " after flush " + (f + 1));
      }
      TreeSimResult sim = simulator.result();
      Map<String, Number> p = store.properties();
      assertEquals(sim.moves(), p.get("node.moves").longValue(), "moves");
      assertEquals(sim.splits(), p.get("node.splits").longValue(), "splits");
      assertEquals(sim.combines(), p.get("node.combines").longValue(), "combines");
      assertEquals(0, p.get("node.moves-rewritten").longValue(), "no move passed a level's sequence cap");
      assertTrue(p.get("node.appends").longValue() > 0 && p.get("node.cuts").longValue() > 0
          && sim.splits() > 0 && sim.combines() > 0 && (!iam || p.get("node.merges").longValue() > 0),
          "every operation ran: " + p);
      assertTrue(sim.depth() >= 5, "several levels formed: " + sim.depth());
    }
  }

  /**
   * The keys of flush {@code f}: the next {@code RECORDS / 2} of an ascending front from 0 and of a
   * descending front from the top of the simulator's key space.
   */
  private static long[] flushKeys(int f) {
    long[] keys = new long[RECORDS];
    for (int i = 0; i < RECORDS / 2; i++) {
      long n = (long) f * (RECORDS / 2) + i;
      keys[2 * i] = n;
      keys[2 * i + 1] = TreeSimulator.KEY_SPACE - 1 - n;
    }
    return keys;
  }

  /** The simulator's tree, a line a level: each node's covered keys, records and sequences. */
  private static List<String> describe(TreeShape shape, TreeSet<Long> written) {
    List<String> out = new ArrayList<>();
    for (int level = 1; level <= shape.depth(); level++) {
      StringBuilder s = new StringBuilder("L" + level + ":");
      for (Node n : shape.level(level)) {
        s.append(node(written, n.lo(), n.hi(), n.bytes(), n.sequences()));
      }
      out.add(s.toString());
    }
    return out;
  }

  /** The store's tree as {@link #describe(TreeShape, TreeSet)} shows the simulator's. */
  private static List<String> describe(IamStore store, TreeSet<Long> written) {
    List<String> out = new ArrayList<>();
    List<List<NodeMeta>> nodes = store.nodes();
    for (int level = 1; level <= store.depth(); level++) {
      StringBuilder s = new StringBuilder("L" + level + ":");
      for (NodeMeta n : nodes.get(level)) {
        long records = n.file() == null ? 0 : n.file().entries();
        assertEquals(records >= RECORDS, n.bytes() >= CAPACITY, "full in the engine as in the simulator: " + n);
        long overhead = n.file() == null ? 0 : FILE_OVERHEAD + SEQUENCE_OVERHEAD * n.sequences();
        assertTrue(Math.abs(n.bytes() - records * RECORD_FILE_BYTES) <= overhead,
            n.bytes() + " file bytes for " + records + " records: " + n);
        s.append(node(written, key(n.lo()), key(n.hi()), records, n.sequences()));
      }
      out.add(s.toString());
    }
    return out;
  }

  /** A node as compared: the first and last written key its range covers, its records and sequences. */
  private static String node(TreeSet<Long> written, long lo, long hi, long records, int sequences) {
    Long first = written.ceiling(lo);
    Long last = written.floor(hi);
    String range = first == null || last == null || first > last ? "[]" : "[" + first + ".." + last + "]";
    return " " + range + " " + records + "r/" + sequences + "s";
  }

  private static long key(byte[] k) {
    return ByteBuffer.wrap(k).getLong();
  }

  /** The local file system without syncs. */
  private static final class NoSyncFs extends ForwardingFs {

    NoSyncFs() {
      super(LocalFs.INSTANCE);
    }

    @Override
    protected FsFile wrap(Path path, FsFile file) {
      return new ForwardingFsFile(file) {
        @Override
        public void sync() {}
      };
    }

    @Override
    public void syncDirectory(Path dir) {}
  }
}
