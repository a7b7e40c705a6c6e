package io.fleetscope.sink.write;

import java.sql.SQLException;

/** Classifies database errors: bad data (reject the record) or anything else (retry the batch). */
public final class SqlErrors {
  private SqlErrors() {}

  /** SQLSTATE class 22 (data exception) or 23 (integrity constraint violation). */
  public static boolean isDataError(SQLException e) {
    String s = e.getSQLState();
    return s != null && (s.startsWith("22") || s.startsWith("23"));
  }
}
