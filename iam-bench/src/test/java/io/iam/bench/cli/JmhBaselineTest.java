package io.iam.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.iam.bench.cli.JmhResults.Key;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The committed baseline reads, and covers every benchmark method the build generates. */
class JmhBaselineTest {

  @Test
  void theCommittedBaselineHasEveryBenchmark() throws Exception {
    URL url = JmhBaselineTest.class.getResource("/jmh/baseline.json");
    assertNotNull(url, "iam-bench/src/main/resources/jmh/baseline.json");

    Set<String> inBaseline = JmhResults.read(path(url)).keySet().stream()
        .map(Key::benchmark)
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> generated = BenchmarkList.defaultList()
        .getAll(OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())
        .stream()
        .map(BenchmarkListEntry::getUsername)
        .collect(Collectors.toCollection(TreeSet::new));

    assertFalse(generated.isEmpty());
    assertEquals(generated, inBaseline, "rerun the suite (see jmh/README.md) after adding or removing a benchmark");
  }

  private static Path path(URL url) throws URISyntaxException {
    return Path.of(url.toURI());
  }
}
