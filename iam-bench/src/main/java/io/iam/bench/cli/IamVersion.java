package io.iam.bench.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version Maven recorded in the jar ({@code pom.properties}), or a development marker. */
final class IamVersion implements IVersionProvider {

  private static final String POM_PROPERTIES = "/META-INF/maven/io.iam/iam-bench/pom.properties";

  @Override
  public String[] getVersion() throws IOException {
    String version = "development build";
    try (InputStream in = IamVersion.class.getResourceAsStream(POM_PROPERTIES)) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        version = p.getProperty("version", version);
      }
    }
    return new String[] {
      "iam " + version,
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"
    };
  }
}
