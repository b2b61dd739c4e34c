package io.iam.core.engine;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.fs.LocalFs;
import io.iam.core.key.BytewiseComparator;
import io.iam.core.key.InternalKeyComparator;
import io.iam.core.table.MSTableReader;
import io.iam.core.table.TableOptions;
import io.iam.core.manifest.NodeMeta;
import io.iam.core.manifest.StoreFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Helpers shared by the engine's durability tests: loading a store, settling it on a thread of
 * its own, and, for node trees, what the manifest records of the node files beside what the files
 * hold on disk, and damage to them.
 */
public final class TestStores {

  static final InternalKeyComparator CMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

  private TestStores() {}

  /** The live nodes holding a file, by file number, in level order. */
  static Map<Long, NodeMeta> byFile(IamStore store) {
    Map<Long, NodeMeta> out = new LinkedHashMap<>();
    for (List<NodeMeta> level : store.nodes()) {
      for (NodeMeta n : level) {
        if (n.file() != null) {
          out.put(n.file().fileNumber(), n);
        }
      }
    }
    return out;
  }

  /**
   * Loads 1,500 keys of about 200 bytes (several memtables, so the tree has level-1 nodes holding
   * files), settles, and returns the level-1 node with a file and the most room for appends.
   */
  static NodeMeta settledTree(IamStore store, TreeMap<byte[], byte[]> model) throws IOException {
    for (int i = 0; i < 1500; i++) {
      put(store, model, bytes(String.format("key%06d", i)), "first-" + i);
    }
    store.flushAndSettle();
    NodeMeta node = store.nodes().get(1).stream().filter(n -> n.file() != null)
        .min(Comparator.comparingLong(NodeMeta::bytes)).orElse(null);
    assertTrue(node != null, "no level-1 node holds a file:\n" + store.describe());
    assertTrue(inRange(model, node).size() > 10, "too few keys in " + node);
    return node;
  }

  /** Overwrites every third key in the node's range: a few KiB, far less than the node's free room. */
  static void overwrite(IamStore store, TreeMap<byte[], byte[]> model, NodeMeta node, String tag) throws IOException {
    int n = 0;
    for (byte[] k : inRange(model, node).keySet()) {
      if (n++ % 3 == 0) {
        put(store, model, k, tag + "-" + n);
      }
    }
  }

  /** Puts a value of about 200 bytes made of {@code tag} into the store and the model. */
  static void put(IamStore store, TreeMap<byte[], byte[]> model, byte[] k, String tag) throws IOException {
    byte[] v = bytes((tag + "-").repeat(200 / (tag.length() + 1)));
    store.put(k, v);
    model.put(k, v);
  }

  /** The node whose file is {@code fileNumber} now, or null if no live node holds it. */
  static NodeMeta holding(IamStore store, long fileNumber) {
    return byFile(store).get(fileNumber);
  }

  /** A reader of a table file exposing every sequence its footer commits, recorded or not. */
  static MSTableReader openAll(Path dir, long fileNumber) throws IOException {
    return MSTableReader.open(LocalFs.INSTANCE, StoreFiles.table(dir, fileNumber), fileNumber, null,
        TableOptions.DEFAULT, CMP, -1);
  }

  /** Sequences the file's footer commits, whatever the manifest records. */
  static int sequencesOnDisk(Path dir, long fileNumber) throws IOException {
    try (MSTableReader r = openAll(dir, fileNumber)) {
      return r.sequenceCount();
    }
  }

  /** The part of the model within a node's key range. */
  static TreeMap<byte[], byte[]> inRange(TreeMap<byte[], byte[]> model, NodeMeta node) {
    return new TreeMap<>(model.subMap(node.lo(), true, node.hi(), true));
  }

  /**
   * Starts {@code store.flushAndSettle()} on a daemon thread: it may never return while the store
   * cannot commit (after a simulated crash, say), and then ends when the store closes.
   */
  static Thread settleInBackground(IamStore store) {
    Thread settle = new Thread(() -> {
      try {
        store.flushAndSettle();
      } catch (IOException e) {
        // the store closed under it
      }
    });
    settle.setDaemon(true);
    settle.start();
    return settle;
  }

  /** Waits up to {@code seconds} for {@code done}; returns whether it came true. */
  static boolean await(BooleanSupplier done, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!done.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return done.getAsBoolean();
  }

  /** Flips the bits of one byte of a file. */
  static void flip(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5A);
    }
  }

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** The keys a full scan of {@code store} returns. */
  public static int countKeys(IamStore store) throws java.io.IOException {
    int n = 0;
    try (StoreIterator it = store.iterator()) {
      for (it.seekToFirst(); it.valid(); it.next()) {
        n++;
      }
    }
    return n;
  }
}
