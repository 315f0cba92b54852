// Runs once before every test file: tests never touch the developer's ./data directory.
process.env.MARQUE_LOG_LEVEL ??= 'silent';
