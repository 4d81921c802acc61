//! A fresh PostgreSQL schema per test, from `TABULA_TEST_POSTGRES`; the
//! tests skip without it unless `TABULA_REQUIRE_POSTGRES=1`.
#![allow(dead_code)]

/// The URL of a new empty schema in the test database, or `None` (the test
/// is skipped) when no database is configured.
pub fn fresh_database() -> Option<String> {
    let base = match std::env::var("TABULA_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ => {
            assert!(
                std::env::var("TABULA_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "TABULA_REQUIRE_POSTGRES=1 but TABULA_TEST_POSTGRES names no database"
            );
            eprintln!("TABULA_TEST_POSTGRES is not set: skipping a PostgreSQL test");
            return None;
        }
    };
    let schema = format!("t{:016x}", rand::random::<u64>());
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let admin = sqlx::PgPool::connect(&base).await.expect("the test database answers");
        sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
            .execute(&admin)
            .await
            .expect("creating a test schema");
        admin.close().await;
    });
    let sep = if base.contains('?') { '&' } else { '?' };
    Some(format!("{base}{sep}options[search_path]={schema}"))
}
