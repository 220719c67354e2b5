// The page (placeholder until the page lands).
