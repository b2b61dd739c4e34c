package io.iam.bench.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.HashMap;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.Status;
import site.ycsb.workloads.CoreWorkload;

class WorkloadsTest {

  private static final List<String> MIX = List.of(CoreWorkload.READ_PROPORTION_PROPERTY,
      CoreWorkload.UPDATE_PROPORTION_PROPERTY, CoreWorkload.INSERT_PROPORTION_PROPERTY,
      CoreWorkload.SCAN_PROPORTION_PROPERTY, CoreWorkload.READMODIFYWRITE_PROPORTION_PROPERTY);

  /**
   * YCSB 0.17.0's workloads/workloada..f (read, update, insert, scan, read-modify-write, request
   * distribution, longest scan), and the IAM paper's G (section 6.5).
   */
  private static final Map<String, List<String>> EXPECTED = Map.of(
      "a", Arrays.asList("0.5", "0.5", "0", "0", null, "zipfian", null),
      "b", Arrays.asList("0.95", "0.05", "0", "0", null, "zipfian", null),
      "c", Arrays.asList("1", "0", "0", "0", null, "zipfian", null),
      "d", Arrays.asList("0.95", "0", "0.05", "0", null, "latest", null),
      "e", Arrays.asList("0", "0", "0.05", "0.95", null, "zipfian", "100"),
      "f", Arrays.asList("0.5", "0", "0", "0", "0.5", "zipfian", null),
      "g", Arrays.asList("0", "0", "0.05", "0.95", null, "zipfian", "10000"));

  @Test
  void eachWorkloadHasUpstreamProportions() {
    assertEquals(Workloads.NAMES.size(), EXPECTED.size());
    for (String name : Workloads.NAMES) {
      Properties p = Workloads.of(name);
      List<String> want = EXPECTED.get(name);
      for (int i = 0; i < MIX.size(); i++) {
        assertEquals(want.get(i), p.getProperty(MIX.get(i)), name + " " + MIX.get(i));
      }
      assertEquals(want.get(5), p.getProperty(CoreWorkload.REQUEST_DISTRIBUTION_PROPERTY), name);
      assertEquals(want.get(6), p.getProperty(CoreWorkload.MAX_SCAN_LENGTH_PROPERTY), name);
      assertEquals(CoreWorkload.class.getName(), p.getProperty("workload"), name);
      assertEquals("true", p.getProperty(CoreWorkload.READ_ALL_FIELDS_PROPERTY), name);
      double sum = MIX.stream().mapToDouble(k -> Double.parseDouble(p.getProperty(k, "0"))).sum();
      assertEquals(1.0, sum, 1e-9, name + " proportions add up to 1");
    }
  }

  @Test
  void scanWorkloadsDrawUniformLengths() {
    for (String name : List.of("e", "g")) {
      assertEquals("uniform", Workloads.of(name).getProperty(CoreWorkload.SCAN_LENGTH_DISTRIBUTION_PROPERTY), name);
    }
  }

  @Test
  void recordsAreYcsbDefaultTenFieldsOfHundredBytes() throws Exception {
    for (String name : Workloads.NAMES) {
      Properties p = Workloads.of(name);
      assertTrue(p.getProperty(CoreWorkload.FIELD_COUNT_PROPERTY) == null, name + " keeps the default field count");
      assertTrue(p.getProperty(CoreWorkload.FIELD_LENGTH_PROPERTY) == null, name + " keeps the default field length");
      CoreWorkload workload = Workloads.coreWorkload(p);
      Map<String, Map<String, ByteIterator>> inserted = new HashMap<>();
      DB capture = new DB() {
        @Override
        public Status insert(String table, String key, Map<String, ByteIterator> values) {
          inserted.put(key, values);
          return Status.OK;
        }

        @Override
        public Status read(String t, String k, Set<String> f, Map<String, ByteIterator> r) {
          throw new UnsupportedOperationException();
        }

        @Override
        public Status scan(String t, String s, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
          throw new UnsupportedOperationException();
        }

        @Override
        public Status update(String t, String k, Map<String, ByteIterator> v) {
          throw new UnsupportedOperationException();
        }

        @Override
        public Status delete(String t, String k) {
          throw new UnsupportedOperationException();
        }
      };
      assertTrue(workload.doInsert(capture, workload.initThread(p, 0, 1)), name);
      Map<String, ByteIterator> record = inserted.values().iterator().next();
      assertEquals(10, record.size(), name + ": fields");
      for (ByteIterator field : record.values()) {
        assertEquals(100, field.toArray().length, name + ": bytes per field");
      }
    }
  }

  @Test
  void unknownWorkloadListsTheNames() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workloads.of("z"));
    assertEquals("unknown workload 'z'; available: a, b, c, d, e, f, g", e.getMessage());
  }
}
