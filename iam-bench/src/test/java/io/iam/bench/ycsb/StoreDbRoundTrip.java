package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;
import site.ycsb.StringByteIterator;

/**
 * Every YCSB operation through a {@link StoreDb}, checked against what was written: the scenario
 * {@link StoreDbTest} runs on each built-in store, shared (through iam-bench's test jar) with the
 * binding modules, whose stores must behave the same.
 */
public final class StoreDbRoundTrip {

  public static final String TABLE = "usertable";

  private StoreDbRoundTrip() {}

  /** {@link StoreDb} properties of a small store: a 256 KiB memtable and a 1 MiB cache. */
  public static Properties properties(String engine, Path dir) {
    Properties p = new Properties();
    p.setProperty(StoreDb.ENGINE, engine);
    p.setProperty(StoreDb.DIR, dir.toString());
    p.setProperty(StoreDb.MEMTABLE, "256KiB");
    p.setProperty(StoreDb.CACHE, "1MiB");
    return p;
  }

  /** A binding instance, initialised, as YCSB makes one per client thread. */
  public static StoreDb open(Properties p) throws DBException {
    StoreDb db = new StoreDb();
    db.setProperties(p);
    db.init();
    return db;
  }

  /** A record from alternating field names and values. */
  public static Map<String, ByteIterator> fields(String... namesAndValues) {
    Map<String, ByteIterator> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put(namesAndValues[i], new StringByteIterator(namesAndValues[i + 1]));
    }
    return m;
  }

  /** A record's values as text. */
  public static Map<String, String> text(Map<String, ByteIterator> m) {
    Map<String, String> t = new HashMap<>();
    m.forEach((k, v) -> t.put(k, new String(v.toArray(), StandardCharsets.UTF_8)));
    return t;
  }

  /**
   * Opens a store with {@code p} (its directory {@code dir}), runs {@link #everyOperation} on it and
   * checks that the cleanup closes it.
   */
  public static void everyOperationThenClose(Properties p, Path dir) throws DBException {
    StoreDb db = open(p);
    try {
      everyOperation(db);
    } finally {
      db.cleanup();
    }
    assertFalse(SharedStore.isOpen(dir), "the last cleanup closes the store");
  }

  /**
   * Inserts five records into an empty store and checks read (all fields and a subset), update (a
   * merge), read-modify-write, scan (order, fields, a scan past the last key), delete, a record written
   * again right after its delete, and many overwrites of one key (the newest wins).
   */
  public static void everyOperation(StoreDb db) {
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
        scanned.stream().map(StoreDbRoundTrip::text).toList());
    Vector<HashMap<String, ByteIterator>> tail = new Vector<>();
    assertEquals(Status.OK, db.scan(TABLE, "user4", 10, null, tail));
    assertEquals(1, tail.size(), "a scan past the last key stops there");
    assertEquals(3, tail.get(0).size());

    assertEquals(Status.OK, db.delete(TABLE, "user3"));
    assertEquals(Status.NOT_FOUND, db.read(TABLE, "user3", null, new HashMap<>()));
    assertEquals(Status.NOT_FOUND, db.update(TABLE, "user3", fields("f0", "x")));
    Vector<HashMap<String, ByteIterator>> afterDelete = new Vector<>();
    assertEquals(Status.OK, db.scan(TABLE, "user2", 2, Set.of("f0"), afterDelete));
    assertEquals(List.of(Map.of("f0", "a2"), Map.of("f0", "a4")),
        afterDelete.stream().map(StoreDbRoundTrip::text).toList());

    // Written again right after its delete (within the same millisecond, usually): visible.
    assertEquals(Status.OK, db.insert(TABLE, "user3", fields("f0", "again")));
    Map<String, ByteIterator> again = new HashMap<>();
    assertEquals(Status.OK, db.read(TABLE, "user3", null, again));
    assertEquals(Map.of("f0", "again"), text(again));

    // Overwritten many times in a row: the newest value wins.
    for (int i = 0; i < 50; i++) {
      assertEquals(Status.OK, db.insert(TABLE, "user0", fields("f0", "v" + i)));
    }
    Map<String, ByteIterator> newest = new HashMap<>();
    assertEquals(Status.OK, db.read(TABLE, "user0", null, newest));
    assertEquals(Map.of("f0", "v49"), text(newest));
  }
}
