package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static io.iam.bench.ycsb.StoreDbRoundTrip.TABLE;
import static io.iam.bench.ycsb.StoreDbRoundTrip.fields;
import static io.iam.bench.ycsb.StoreDbRoundTrip.open;
import static io.iam.bench.ycsb.StoreDbRoundTrip.properties;
import static io.iam.bench.ycsb.StoreDbRoundTrip.text;

import io.iam.bench.load.LoadTargets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DBException;
import site.ycsb.Status;

/** Every YCSB operation through {@link StoreDb}, on every store. */
class StoreDbTest {

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"iam", "lsa", "lsm-merge", "leveled", "lsbm", "minmax", "stack", "rocksdb", "rocksdb-universal"})
  void everyOperationRoundTrips(String engine) throws Exception {
    Path dir = tmp.resolve(engine);
    StoreDbRoundTrip.everyOperationThenClose(properties(engine, dir), dir);
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
