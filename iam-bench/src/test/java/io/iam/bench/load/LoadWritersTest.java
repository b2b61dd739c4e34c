package io.iam.bench.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Loads put by several writers at once ({@code iam load --writers N}), run by {@link LoadRunner}. */
class LoadWritersTest {

  private static final int RECORDS = 20_000;
  private static final int VALUE = 256;
  private static final int WRITERS = 4;
  /** About 20 flushes of the load, and compactions below them. */
  private static final long MEMTABLE = 256 << 10;

  private static LoadWorkload workload(int writers) {
    return new LoadWorkload(RECORDS, VALUE, KeyOrder.HASH, 42, writers);
  }

  @ParameterizedTest
  @ValueSource(strings = {"iam", RocksDbTarget.NAME})
  void fourWritersPutEveryRecordOnceWithItsOwnValue(String tree, @TempDir Path four, @TempDir Path one)
      throws IOException {
    LoadConfig config = LoadConfig.defaults(tree, MEMTABLE, 4 << 20);
    KeptOpen store = new KeptOpen(LoadTargets.find(tree).orElseThrow());

    // The runner also checks that the store counted exactly the user bytes the writers put.
    LoadResult r = LoadRunner.run(store.factory(), four, config, workload(WRITERS), false);
    LoadResult single = LoadRunner.run(LoadTargets.find(tree).orElseThrow(), one, config, workload(1), false);

    try (LoadTarget target = store.target) {
      assertEquals(WRITERS, r.writers());
      assertEquals(1, single.writers());
      assertEquals(WRITERS, store.putThreads.size(), "puts came from " + store.putThreads);
      assertEquals(RECORDS, store.puts.get(), "every record put once");
      assertEquals(RECORDS, r.latency().count(), "every put timed once");
      assertEquals(single.metrics().userBytes(), r.metrics().userBytes(), "the same records as one writer's");
      // Memtables were flushed, and their records went on to table files.
      assertTrue(r.metrics().files() > 1 && r.metrics().bytesWritten() >= r.metrics().userBytes(),
          r.metrics().toString());

      // Writer w drew its values from its own stream, in the order of its records n = w, w + 4, ...
      LoadWorkload expected = workload(WRITERS);
      List<LoadWorkload.Values> values = expected.writerValues();
      for (long n = 0; n < RECORDS; n++) {
        assertArrayEquals(values.get((int) (n % WRITERS)).next(), target.get(expected.key(n)), "record " + n);
      }
      assertEquals(RECORDS, target.scan(new byte[0], RECORDS + 1), "no key but the records'");
    }
  }

  @Test
  void aStoreWithoutConcurrentPutsRefusesSeveralWriters() {
    MapTarget target = new MapTarget();

    LoadRunner.WritersRefusedException e = assertThrows(LoadRunner.WritersRefusedException.class,
        () -> LoadRunner.run(target.factory(), Path.of("unused"), LoadConfig.defaults("map", 1 << 20, 1 << 20),
            new LoadWorkload(100, 10, KeyOrder.HASH, 42, 2), false));

    assertEquals("--writers 2: the store 'map' takes puts from one thread at a time; run it with --writers 1",
        e.getMessage());
    assertTrue(target.map.isEmpty(), "nothing was put");
    assertTrue(target.closed);
  }

  @Test
  void aWriterWhosePutFailsStopsTheLoadWithItsError() throws Exception {
    LoadWorkload workload = workload(WRITERS);
    byte[] failing = workload.key(5); // writer 1's second record
    FailingTarget target = new FailingTarget(failing);

    IOException e = assertThrows(IOException.class, () -> LoadRunner.run((dir, config) -> target,
        Path.of("unused"), LoadConfig.defaults("failing", 1 << 20, 1 << 20), workload, false));

    assertEquals("failing: put " + MapTarget.text(failing) + " failed", e.getMessage());
    assertTrue(target.closed);
    long puts = target.puts.get();
    // Each put takes at least 100 us, so the other writers had put a few records each when it failed.
    assertTrue(puts < RECORDS / 2, puts + " puts: the other writers went on");
    Thread.sleep(50);
    assertEquals(puts, target.puts.get(), "no writer is still putting");
  }

  /**
   * Opens stores with a factory and keeps the last one open after the runner closes it, for reading
   * back; counts its puts and the threads they came from.
   */
  private static final class KeptOpen {
    private final LoadTarget.Factory real;
    final Set<String> putThreads = ConcurrentHashMap.newKeySet();
    final AtomicLong puts = new AtomicLong();
    LoadTarget target;

    KeptOpen(LoadTarget.Factory real) {
      this.real = real;
    }

    LoadTarget.Factory factory() {
      return (dir, config) -> {
        target = real.open(dir, config);
        return (LoadTarget) Proxy.newProxyInstance(LoadTarget.class.getClassLoader(),
            new Class<?>[] {LoadTarget.class}, (proxy, method, args) -> {
              switch (method.getName()) {
                case "close":
                  return null;
                case "put":
                  putThreads.add(Thread.currentThread().getName());
                  puts.incrementAndGet();
                  break;
                default:
                  break;
              }
              try {
                return method.invoke(target, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
      };
    }
  }

  /** A store whose put of one key fails as a store's I/O error does; every put takes 100 us or more. */
  private static final class FailingTarget implements LoadTarget {
    private final byte[] failing;
    final AtomicLong puts = new AtomicLong();
    volatile boolean closed;

    FailingTarget(byte[] failing) {
      this.failing = failing;
    }

    @Override
    public boolean concurrentPuts() {
      return true;
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
      puts.incrementAndGet();
      if (Arrays.equals(key, failing)) {
        throw new IOException("failing: put " + MapTarget.text(key) + " failed");
      }
      LockSupport.parkNanos(100_000);
    }

    @Override
    public void settle() {}

    @Override
    public LoadMetrics metrics() {
      throw new AssertionError("the load failed: no metrics");
    }

    @Override
    public byte[] get(byte[] key) {
      return null;
    }

    @Override
    public void delete(byte[] key) {}

    @Override
    public int scan(byte[] start, int limit, Entries entries) {
      return 0;
    }

    @Override
    public void close() {
      closed = true;
    }
  }
}
