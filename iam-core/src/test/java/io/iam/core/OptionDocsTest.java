package io.iam.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.iam.core.engine.StoreOptions;
import io.iam.core.option.OptionTable;
import io.iam.core.policy.MergePolicies;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The docs show option tables between {@code <!-- options:NAME -->} and {@code <!-- /options
 * -->}, where NAME is a policy name or {@code store}. This test fails when a table there differs
 * from the one the code declares, or when a declared table is documented nowhere; {@code
 * -Diam.golden.rewrite=true} regenerates them.
 */
class OptionDocsTest {

  private static final Pattern BLOCK =
      Pattern.compile("<!-- options:([a-z-]+) -->\\n(.*?)<!-- /options -->", Pattern.DOTALL);

  private static Map<String, OptionTable> declared() {
    Map<String, OptionTable> tables = new LinkedHashMap<>();
    MergePolicies.all().forEach(d -> tables.put(d.name(), d.options()));
    tables.put("store", StoreOptions.TABLE);
    return tables;
  }

  @Test
  void everyDocumentedTableIsTheDeclaredOne() throws IOException {
    Map<String, OptionTable> tables = declared();
    Set<String> documented = new HashSet<>();
    Path docs = Paths.get(System.getProperty("iam.docs.dir", "../docs"));
    for (String name : new String[] {"policies.md", "engine.md"}) {
      Path doc = docs.resolve(name);
      String text = Files.readString(doc, StandardCharsets.UTF_8);
      if (Boolean.getBoolean("iam.golden.rewrite")) {
        Matcher m = BLOCK.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
          String table = tables.get(m.group(1)).toMarkdown("");
          m.appendReplacement(out, Matcher.quoteReplacement("<!-- options:" + m.group(1) + " -->\n" + table + "<!-- /options -->"));
        }
        m.appendTail(out);
        text = out.toString();
        Files.writeString(doc, text, StandardCharsets.UTF_8);
      }
      Matcher m = BLOCK.matcher(text);
      while (m.find()) {
        OptionTable table = tables.get(m.group(1));
        assertTrue(table != null, doc + " documents options of unknown '" + m.group(1) + "'");
        assertEquals(table.toMarkdown(""), m.group(2), doc + ": options of " + m.group(1));
        documented.add(m.group(1));
      }
    }
    assertEquals(tables.keySet(), documented, "every option table must be documented");
  }
}
