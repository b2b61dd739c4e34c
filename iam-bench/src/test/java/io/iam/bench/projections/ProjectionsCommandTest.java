package io.iam.bench.projections;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.iam.bench.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProjectionsCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int RECORDS = 4000;
  private static final int QUERIES = 3;

  @Test
  void leveledLoadsTheThreeProjectionsAndEveryQueryReturnsWhatTheStreamHolds(@TempDir Path out) throws Exception {
    CliRun run = CliRun.of("projections", "--stores", "leveled", "--records", "" + RECORDS, "--queries",
        "" + QUERIES, "--memtable", "64KiB", "--cache", "128KiB", "--disorder", "300", "--seed", "5", "--json",
        "--no-progress", "--out", out.toString());

    assertEquals(0, run.exitCode(), run.err());
    assertEquals("", run.err());
    JsonNode r = JSON.readTree(run.lastOutLine());
    assertEquals(RECORDS, r.get("records").asInt());
    assertEquals(65536, r.get("config").get("memtableBytes").asLong());
    JsonNode stores = r.get("stores");
    assertEquals(1, stores.size());
    assertEquals("leveled", stores.get(0).get("store").asText());
    JsonNode projections = stores.get(0).get("projections");
    assertEquals(3, projections.size());

    TaxiTrips trips = new TaxiTrips(5, 300);
    for (Projection p : Projection.values()) {
      JsonNode j = projections.get(p.ordinal());
      assertEquals(p.label(), j.get("projection").asText());
      long userBytes = RECORDS * (long) (p.key(trips, 0).length + p.value(trips, 0).length);
      assertEquals(userBytes, j.get("userBytes").asLong(), p.label());
      assertTrue(j.get("bytesWritten").asLong() >= userBytes, p + ": " + j);
      assertEquals(j.get("flushBytes").asLong() + j.get("compactionBytesWritten").asLong(),
          j.get("bytesWritten").asLong());
      assertTrue(j.get("compactions").asLong() >= 0 && j.get("compactionBytesRead").asLong() >= 0, j.toString());
      assertTrue(j.get("files").asInt() > 0 && j.get("diskBytes").asLong() > 0, j.toString());

      // Each row's count, against a count over the generated values themselves.
      long[] values = p.attributes(trips, RECORDS);
      List<RangeQueries.Query> queries = ProjectionsBench.queries(trips, p, RECORDS, QUERIES);
      JsonNode rows = j.get("queries");
      assertEquals(RangeQueries.TABLE_4.size(), rows.size());
      long blocks = 0;
      for (int row = 0; row < rows.size(); row++) {
        JsonNode q = rows.get(row);
        RangeQueries.Table4 t4 = RangeQueries.TABLE_4.get(row);
        assertEquals(t4.name(), q.get("query").asText());
        long counted = 0;
        for (RangeQueries.Query query : queries.subList(row * QUERIES, (row + 1) * QUERIES)) {
          counted += Arrays.stream(values).filter(v -> v >= query.lo() && v <= query.hi()).count();
        }
        assertEquals(counted, q.get("expected").asLong(), p + " " + q);
        assertEquals(counted, q.get("returned").asLong(), p + " " + q);
        assertEquals(t4.selectivity(), q.get("selectivity").asDouble(), t4.selectivity() * 0.1, p + " " + q);
        blocks += q.get("dataBlocks").asLong();
      }
      // The data is larger than the cache, and flushes do not fill it: the queries read blocks.
      assertTrue(blocks > 0, p + ": " + rows);
    }
    assertTrue(run.out().contains("load: puts then settle"), run.out());
    assertTrue(run.out().contains("range queries at Table 4's selectivities"), run.out());

    assertEquals(1 + 3, Files.readAllLines(out.resolve(ProjectionsReport.LOAD_CSV)).size());
    assertEquals(1 + 3 * 5, Files.readAllLines(out.resolve(ProjectionsReport.QUERIES_CSV)).size());
    byte[] png = {(byte) 0x89, 'P', 'N', 'G'};
    for (String chart : List.of(ProjectionsCharts.LOAD, ProjectionsCharts.QUERY_IO)) {
      assertArrayEquals(png, Arrays.copyOf(Files.readAllBytes(out.resolve(chart)), 4), chart);
    }
  }

  @Test
  void anUnknownStoreIsAUsageErrorThatListsTheRegisteredOnes() {
    CliRun run = CliRun.assertUsageError("projections",
        "iam projections: unknown store 'no-such-store'; available stores: ", "--stores", "leveled,no-such-store",
        "--records", "10");
    assertTrue(run.err().contains("leveled") && run.err().contains("rocksdb-universal"), run.err());
  }

  @Test
  void aStoreNamedTwiceIsAUsageError() {
    CliRun.assertUsageError("projections", "iam projections: --stores names 'leveled' twice", "--stores",
        "leveled,leveled");
  }
}
