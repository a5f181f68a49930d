"""The main window's pages (tabs): contests, requests, and those added later."""
