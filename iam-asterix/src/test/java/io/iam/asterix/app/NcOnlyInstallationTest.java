package io.iam.asterix.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * IAM's NC application with AsterixDB's own CC application ({@code cc-nc-only.conf}), as when an
 * operator leaves out the {@code [cc]} step: the policies work, and a bad parameter value is
 * refused by the NC when it builds the index, with nothing left behind.
 */
class NcOnlyInstallationTest {

  @RegisterExtension
  static final EmbeddedAsterix asterix = new EmbeddedAsterix("cc-nc-only.conf");

  @Test
  void badValueFailsTheIndexBuildAndLeavesNothing() throws Exception {
    JsonNode response = asterix.sql("USE Iam; CREATE DATASET Events(EventType) PRIMARY KEY id WITH "
        + "{\"merge-policy\": {\"name\": \"binomial\", \"parameters\": {\"num-components\": 0}}};");
    assertEquals("fatal", response.path("status").asText(), response.toString());
    String error = response.path("errors").get(0).path("msg").asText();
    System.out.println("without IamCCApplication: " + error);
    assertTrue(error.contains("invalid options for binomial policy: num-components=0 is out of range:"
        + " allowed 1 to 64"), error);
    assertEquals(0, asterix.sqlOk("SELECT VALUE COUNT(*) FROM Metadata.`Dataset` ds "
        + "WHERE ds.DatasetName = 'Events';").get(0).asLong(), "Events was persisted");

    // Nothing was left on disk either: the same name can be created, and it holds data.
    asterix.sqlOk("USE Iam; CREATE DATASET Events(EventType) PRIMARY KEY id WITH "
        + "{\"merge-policy\": {\"name\": \"binomial\", \"parameters\": {\"num-components\": 3}}};");
    asterix.sqlOk("USE Iam; UPSERT INTO Events (FROM range(1, 1000) AS i SELECT VALUE {'id': i});");
    assertEquals(1000, asterix.sqlOk("USE Iam; SELECT VALUE COUNT(*) FROM Events;").get(0).asLong());
  }
}
