package io.iam.hbase.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.option.InvalidOptionsException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompactionSettingsTest {

  private static CompactionSettings parse(Map<String, String> props) {
    return CompactionSettings.parse(props.entrySet());
  }

  @Test
  void readsThePolicyAndItsOptionsUnderThePrefix() {
    CompactionSettings s = parse(Map.of("iam.compaction.policy", "Binomial",
        "iam.compaction.max-components", "5", "hbase.other", "x"));
    assertEquals("binomial", s.policy().name());
    assertEquals(5, s.policy().maxComponents());
    assertEquals("exploring", parse(Map.of()).policy().name(), "the default policy");
  }

  @Test
  void anotherPolicysOptionIsIgnoredAndReported() {
    CompactionSettings s = parse(Map.of("iam.compaction.policy", "minlatency",
        "iam.compaction.max-mergable-component-size", "1GiB"));
    assertEquals(java.util.List.of("iam.compaction.max-mergable-component-size"), s.ignoredKeys());
  }

  @Test
  void errorsNameThePropertyAsTheUserWroteIt() {
    InvalidOptionsException e = assertThrows(InvalidOptionsException.class,
        () -> parse(Map.of("iam.compaction.policy", "fastest")));
    assertTrue(e.getMessage().contains("iam.compaction.policy='fastest'"), e.getMessage());
    assertTrue(e.getMessage().contains("binomial"), "lists the known policies: " + e.getMessage());

    e = assertThrows(InvalidOptionsException.class,
        () -> parse(Map.of("iam.compaction.policy", "binomial", "iam.compaction.max-components", "0")));
    assertTrue(e.getMessage().contains("iam.compaction.max-components=0 is out of range"), e.getMessage());

    e = assertThrows(InvalidOptionsException.class,
        () -> parse(Map.of("iam.compaction.maxcomponents", "4")));
    assertTrue(e.getMessage().contains("unknown property 'iam.compaction.maxcomponents'"), e.getMessage());
  }
}
