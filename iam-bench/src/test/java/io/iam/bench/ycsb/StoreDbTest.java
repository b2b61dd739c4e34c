package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.bench.load.LoadTargets;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/** Every YCSB operation through {@link StoreDb}, on every store. */
class StoreDbTest {

  private static final String TABLE = "usertable";

  @TempDir Path tmp;

  static Properties properties(String engine, Path dir) {
    Properties p = new Properties();
    p.setProperty(StoreDb.ENGINE, engine);
    p.setProperty(StoreDb.DIR, dir.toString());
    p.setProperty(StoreDb.MEMTABLE, "256KiB");
    p.setProperty(StoreDb.CACHE, "1MiB");
    return p;
  }

  private static StoreDb open(Properties p) throws DBException {
    StoreDb db = new StoreDb();
    db.setProperties(p);
    db.init();
    return db;
  }

  private static Map<String, ByteIterator> fields(String... namesAndValues) {
    Map<String, ByteIterator> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put(namesAndValues[i], new StringByteIterator(namesAndValues[i + 1]));
    }
    return m;
  }

  private static Map<String, String> text(Map<String, ByteIterator> m) {
    Map<String, String> t = new HashMap<>();
    m.forEach((k, v) -> t.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
    return t;
  }

  @ParameterizedTest
  @ValueSource(strings = {"iam", "lsa", "lsm-merge", "leveled", "rocksdb", "rocksdb-universal"})
  void everyOperationRoundTrips(String engine) throws Exception {
    Path dir = tmp.resolve(engine);
    StoreDb db = open(properties(engine, dir));
    try {
      for (int i = 0; i < 5; i++) {
        assertEquals(Status.OK, db.insert(TABLE, "user" + i, fields("f0", "a" + i, "f1", "b" + i, "f2", "c" + i)));
      }

      Map<String, ByteIterator> all = new HashMap<>();
      assertEquals(Status.OK, db.read(TABLE, "user3", null, all));
      assertEquals(Map.of("f0", "a3", "f1", "b3", "f2", "c3"), text(all));

      Map<String, ByteIterator> some = new HashMap<>();
      assertEquals(Status.OK, db.read(TABLE, "user3", Set.of("f1"), some));
      assertEquals(Map.of("f1", "b3"), text(some));

      assertEquals(Status.OK, db.update(TABLE, "user2", fields("f1", "updated")));
      Map<String, ByteIterator> merged = new HashMap<>();
      assertEquals(Status.OK, db.read(TABLE, "user2", null, merged));
      assertEquals(Map.of("f0", "a2", "f1", "updated", "f2", "c2"), text(merged));

      // Read-modify-write as YCSB's workload F does it: read every field, then update one.
      Map<String, ByteIterator> before = new HashMap<>();
      assertEquals(Status.OK, db.read(TABLE, "user4", null, before));
      assertEquals(Status.OK, db.update(TABLE, "user4", fields("f2", text(before).get("f2") + "+rmw")));
      Map<String, ByteIterator> after = new HashMap<>();
      assertEquals(Status.OK, db.read(TABLE, "user4", Set.of("f0", "f2"), after));
      assertEquals(Map.of("f0", "a4", "f2", "c4+rmw"), text(after));

      Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
      assertEquals(Status.OK, db.scan(TABLE, "user1", 3, Set.of("f0"), scanned));
      assertEquals(List.of(Map.of("f0", "a1"), Map.of("f0", "a2"), Map.of("f0", "a3")),
          scanned.stream().map(StoreDbTest::text).toList());
      Vector<HashMap<String, ByteIterator>> tail = new Vector<>();
      assertEquals(Status.OK, db.scan(TABLE, "user4", 10, null, tail));
      assertEquals(1, tail.size(), "a scan past the last key stops there");
      assertEquals(3, tail.get(0).size());

      assertEquals(Status.OK, db.delete(TABLE, "user3"));
      assertEquals(Status.NOT_FOUND, db.read(TABLE, "user3", null, new HashMap<>()));
      assertEquals(Status.NOT_FOUND, db.update(TABLE, "user3", fields("f0", "x")));
      Vector<HashMap<String, ByteIterator>> afterDelete = new Vector<>();
      db.scan(TABLE, "user2", 2, Set.of("f0"), afterDelete);
      assertEquals(List.of(Map.of("f0", "a2"), Map.of("f0", "a4")), afterDelete.stream().map(StoreDbTest::text).toList());
    } finally {
      db.cleanup();
    }
    assertFalse(SharedStore.isOpen(dir), "the last cleanup closes the store");
  }

  @Test
  void threadsShareOneStoreUntilTheLastCleanup() throws Exception {
    Path dir = tmp.resolve("shared");
    Properties p = properties("iam", dir);
    StoreDb first = open(p);
    StoreDb second = open(p);
    assertEquals(Status.OK, first.insert(TABLE, "k", fields("f", "v")));
    Map<String, ByteIterator> seen = new HashMap<>();
    assertEquals(Status.OK, second.read(TABLE, "k", null, seen));
    assertEquals(Map.of("f", "v"), text(seen));
    first.cleanup();
    assertTrue(SharedStore.isOpen(dir));
    assertEquals(Status.OK, second.read(TABLE, "k", null, new HashMap<>()));
    second.cleanup();
    assertFalse(SharedStore.isOpen(dir));
  }

  @Test
  void concurrentUpdatesOfOneRecordKeepEveryField() throws Exception {
    Properties p = properties("iam", tmp.resolve("concurrent"));
    StoreDb setup = open(p);
    setup.insert(TABLE, "k", fields("f0", "-", "f1", "-", "f2", "-", "f3", "-"));
    int threads = 4;
    int rounds = 200;
    List<Thread> workers = new java.util.ArrayList<>();
    List<Status> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    for (int t = 0; t < threads; t++) {
      String field = "f" + t;
      StoreDb db = open(p);
      workers.add(new Thread(() -> {
        for (int r = 0; r < rounds; r++) {
          Status s = db.update(TABLE, "k", fields(field, Integer.toString(r)));
          if (!s.isOk()) {
            failures.add(s);
          }
        }
      }));
    }
    workers.forEach(Thread::start);
    for (Thread w : workers) {
      w.join();
    }
    Map<String, ByteIterator> end = new HashMap<>();
    assertEquals(Status.OK, setup.read(TABLE, "k", null, end));
    String last = Integer.toString(rounds - 1);
    assertEquals(Map.of("f0", last, "f1", last, "f2", last, "f3", last), text(end));
    assertEquals(List.of(), failures);
  }

  @Test
  void badPropertiesFailInit() {
    Properties noEngine = new Properties();
    noEngine.setProperty(StoreDb.DIR, tmp.toString());
    assertEquals("property iam.engine is required",
        assertThrows(DBException.class, () -> open(noEngine)).getMessage());
    Properties unknown = properties("nope", tmp.resolve("x"));
    assertEquals(LoadTargets.unknown("nope", "engine"), assertThrows(DBException.class, () -> open(unknown)).getMessage());
    Properties badSize = properties("iam", tmp.resolve("y"));
    badSize.setProperty(StoreDb.MEMTABLE, "lots");
    assertTrue(assertThrows(DBException.class, () -> open(badSize)).getMessage().startsWith("property iam.memtable='lots': "));
  }
}
