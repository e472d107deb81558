mod gantt;
mod plots;
mod summary;
