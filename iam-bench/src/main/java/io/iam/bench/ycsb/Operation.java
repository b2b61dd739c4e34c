package io.iam.bench.ycsb;

/** The operations a YCSB run times, with the names the report and the JSON give them. */
public enum Operation {
  READ("read"),
  UPDATE("update"),
  INSERT("insert"),
  SCAN("scan"),
  /** Workload F's read-then-update, timed as a whole; its read and update count under those too. */
  READ_MODIFY_WRITE("readModifyWrite"),
  DELETE("delete");

  private final String json;

  Operation(String json) {
    this.json = json;
  }

  /** The name in the report and the JSON: {@code read}, {@code readModifyWrite}. */
  public String json() {
    return json;
  }
}
