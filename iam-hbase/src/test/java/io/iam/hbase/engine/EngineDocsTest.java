package io.iam.hbase.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.InvalidOptionsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/hbase-engine.md lists exactly the engine's options; bad values name their property. */
class EngineDocsTest {

  @Test
  void theDocumentedPropertiesAreTheOptionTable() throws Exception {
    Path doc = Path.of("..", "docs", "hbase-engine.md");
    String text = Files.readString(doc);
    Matcher m = Pattern.compile("<!-- options:begin -->\n(.*?)<!-- options:end -->", Pattern.DOTALL).matcher(text);
    assertTrue(m.find(), "the options block of " + doc);
    assertEquals(EngineSettings.TABLE.toMarkdown(EngineSettings.PREFIX), m.group(1));
  }

  @Test
  void badValuesAndUnknownKeysNameTheProperty() {
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class, () -> EngineSettings.parse(
        Map.of("iam.engine.fanout", "1", "iam.engine.colour", "red", "iam.compaction.policy", "x").entrySet()));
    assertEquals(2, e.problems().size(), e.getMessage());
    assertTrue(e.getMessage().contains("iam.engine.fanout=1"), e.getMessage());
    assertTrue(e.getMessage().contains("'iam.engine.colour'"), e.getMessage());
  }

  @Test
  void settingsParseTypedValues() {
    EngineSettings s = EngineSettings.parse(Map.of("iam.engine.tree", "lsa", "iam.engine.node-capacity", "64KiB",
        "iam.engine.cache-size", "1MiB").entrySet());
    assertEquals(io.iam.core.engine.TreeKind.LSA, s.tree());
    assertEquals(64L << 10, s.nodeCapacity());
    assertEquals(1L << 20, s.cacheBytes(5));
    assertEquals(5, EngineSettings.defaults().cacheBytes(5));
    assertEquals(Integer.MAX_VALUE, EngineSettings.defaults().maxRunningSteps());
    assertEquals(1, EngineSettings.parse(Map.of("iam.engine.max-running-steps", "1").entrySet()).maxRunningSteps());
    assertEquals(io.iam.core.tree.iam.Mode.lsa(), s.modeFor(new long[] {1, 2}, 10));
  }
}
