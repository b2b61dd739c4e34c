package io.iam.bench.ycsb;

import io.iam.bench.load.LoadConfig;
import io.iam.bench.load.LoadTargets;
import io.iam.core.option.OptionType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.locks.ReentrantLock;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/**
 * The YCSB binding of every store {@code iam load} knows ({@link LoadTargets}): IAM's embedded engine
 * under each tree ({@code iam}, {@code lsa}, {@code lsm-merge}, {@code leveled}, {@code lsbm}, {@code minmax}, {@code stack}) and RocksDB ({@code
 * rocksdb}, {@code rocksdb-universal}). YCSB makes one instance per client thread; they share one
 * store per directory through {@link SharedStore}.
 *
 * <p>Properties (YCSB's {@code -p}), read in {@link #init()}:
 *
 * <ul>
 *   <li>{@value #ENGINE} (required): the store's name.
 *   <li>{@value #DIR} (required): its directory, new or empty when the store is first opened.
 *   <li>{@value #MEMTABLE} (default {@value #DEFAULT_MEMTABLE}) and {@value #CACHE} (default {@value
 *       #DEFAULT_CACHE}): sizes as {@code iam load --memtable/--cache} read them; every other budget is
 *       {@code iam load}'s default for them ({@link LoadConfig#defaults}).
 *   <li>{@value #OPTION_PREFIX}{@code KEY}: the store's option KEY ({@link LoadConfig#engineOptions()}).
 * </ul>
 *
 * <p>A record is one value under its key (the key's UTF-8 bytes), in {@link RecordCodec}'s format;
 * the table name is not part of the key, so the store holds one table. {@link #read} and {@link
 * #scan} decode the fields asked for (all if {@code fields} is null); {@link #update} reads the
 * record, writes the given fields over it and puts it back, under a per-key lock of the shared store
 * so that concurrent updates of one record keep each other's fields ({@code NOT_FOUND} if there is no
 * record); {@link #insert} puts a new value; {@link #delete} deletes. A failing store call gives
 * {@link Status#ERROR}, and the shared store keeps the first such failure for the report.
 */
public final class StoreDb extends DB {

  public static final String ENGINE = "iam.engine";
  public static final String DIR = "iam.dir";
  public static final String MEMTABLE = "iam.memtable";
  public static final String CACHE = "iam.cache";
  /** {@code iam.option.KEY=VALUE} sets the store's engine option KEY ({@link LoadConfig#engineOptions()}). */
  public static final String OPTION_PREFIX = "iam.option.";
  public static final String DEFAULT_MEMTABLE = "64MiB";
  public static final String DEFAULT_CACHE = "256MiB";

  private SharedStore store;

  /** The store budgets that the properties describe. */
  public static LoadConfig config(Properties p) throws DBException {
    String engine = required(p, ENGINE);
    if (LoadTargets.find(engine).isEmpty()) {
      throw new DBException(LoadTargets.unknown(engine, "engine"));
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith(OPTION_PREFIX)) {
        options.put(name.substring(OPTION_PREFIX.length()), p.getProperty(name));
      }
    }
    return LoadConfig.defaults(engine, size(p, MEMTABLE, DEFAULT_MEMTABLE), size(p, CACHE, DEFAULT_CACHE))
        .withEngineOptions(options);
  }

  @Override
  public void init() throws DBException {
    Properties p = getProperties();
    try {
      store = SharedStore.acquire(Path.of(required(p, DIR)), config(p));
    } catch (IOException | RuntimeException e) {
      throw new DBException("cannot open " + p.getProperty(ENGINE) + " in " + p.getProperty(DIR) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void cleanup() throws DBException {
    if (store == null) {
      return;
    }
    try {
      // A phase ends with every client's cleanup: what a client still holds goes to the store first.
      store.target().sendHeldWrites();
      store.release();
    } catch (IOException e) {
      throw new DBException("cannot close " + store.config().tree() + ": " + e.getMessage(), e);
    } finally {
      store = null;
    }
  }

  @Override
  public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
    try {
      byte[] value = store.target().get(bytes(key));
      if (value == null) {
        return Status.NOT_FOUND;
      }
      putAll(RecordCodec.decode(value, fields), result);
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("read", e);
    }
  }

  @Override
  public Status scan(String table, String startkey, int recordcount, Set<String> fields,
      Vector<HashMap<String, ByteIterator>> result) {
    try {
      store.target().scan(bytes(startkey), recordcount, (key, value) -> {
        HashMap<String, ByteIterator> record = new HashMap<>();
        putAll(RecordCodec.decode(value, fields), record);
        result.add(record);
      });
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("scan", e);
    }
  }

  @Override
  public Status update(String table, String key, Map<String, ByteIterator> values) {
    byte[] k = bytes(key);
    ReentrantLock lock = store.updateLock(k);
    lock.lock();
    try {
      byte[] existing = store.target().get(k);
      if (existing == null) {
        return Status.NOT_FOUND;
      }
      store.target().put(k, RecordCodec.merge(existing, fieldBytes(values)));
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("update", e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Status insert(String table, String key, Map<String, ByteIterator> values) {
    try {
      store.target().put(bytes(key), RecordCodec.encode(fieldBytes(values)));
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("insert", e);
    }
  }

  @Override
  public Status delete(String table, String key) {
    try {
      store.target().delete(bytes(key));
      return Status.OK;
    } catch (IOException | RuntimeException e) {
      return error("delete", e);
    }
  }

  private Status error(String operation, Exception e) {
    store.recordError(operation, e);
    return Status.ERROR;
  }

  private static byte[] bytes(String key) {
    return key.getBytes(StandardCharsets.UTF_8);
  }

  /** The values as bytes; YCSB's iterators can be read only once. */
  private static Map<String, byte[]> fieldBytes(Map<String, ByteIterator> values) {
    Map<String, byte[]> fields = new LinkedHashMap<>();
    values.forEach((name, value) -> fields.put(name, value.toArray()));
    return fields;
  }

  private static void putAll(Map<String, byte[]> fields, Map<String, ByteIterator> result) {
    fields.forEach((name, value) -> result.put(name, new ByteArrayByteIterator(value)));
  }

  private static String required(Properties p, String key) throws DBException {
    String v = p.getProperty(key);
    if (v == null || v.isBlank()) {
      throw new DBException("property " + key + " is required");
    }
    return v.trim();
  }

  private static long size(Properties p, String key, String fallback) throws DBException {
    String v = p.getProperty(key, fallback);
    try {
      return OptionType.SIZE.parse(v.trim());
    } catch (IllegalArgumentException e) {
      throw new DBException("property " + key + "='" + v + "': " + e.getMessage());
    }
  }
}
