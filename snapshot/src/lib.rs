//! Double-buffered, dirty-chunk and persistent copies of plain-data worlds for tickfold (coming: see the snapshot issue).
#![forbid(unsafe_code)]
#![no_std]
