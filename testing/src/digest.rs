//! The digest of a replay file (feature `serde`): 64-bit FNV-1a over the serde data model of
//! what the file holds, so the same for every format (JSON, a binary format) and computed from
//! the typed values both when writing and after reading.
//!
//! Every value is fed with a tag byte saying its kind, then its contents in little-endian
//! bytes (floats by their bits, strings and byte strings with their length first, sequences
//! and maps with an end tag), so that two different values never feed the same bytes by
//! running together.

use core::fmt;
use core::hash::Hasher;

use serde::ser::{self, Serialize};

use crate::fnv::Fnv1a;

/// The digest of `value`.
pub(crate) fn digest<T: Serialize + ?Sized>(value: &T) -> Result<u64, DigestError> {
    let mut d = Digest(Fnv1a::new());
    value.serialize(&mut d)?;
    Ok(d.0.value())
}

/// A value serde could not feed (a custom `Serialize` impl that reported an error).
#[derive(Debug)]
pub(crate) struct DigestError(String);

impl fmt::Display for DigestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DigestError {}

impl ser::Error for DigestError {
    fn custom<T: fmt::Display>(msg: T) -> DigestError {
        DigestError(msg.to_string())
    }
}

struct Digest(Fnv1a);

/// The tags, one per kind of value in serde's data model.
mod tag {
    pub(super) const BOOL: u8 = 1;
    pub(super) const INT: u8 = 2;
    pub(super) const FLOAT: u8 = 3;
    pub(super) const CHAR: u8 = 4;
    pub(super) const STR: u8 = 5;
    pub(super) const BYTES: u8 = 6;
    pub(super) const NONE: u8 = 7;
    pub(super) const SOME: u8 = 8;
    pub(super) const UNIT: u8 = 9;
    pub(super) const VARIANT: u8 = 10;
    pub(super) const NEWTYPE: u8 = 11;
    pub(super) const SEQ: u8 = 12;
    pub(super) const MAP: u8 = 13;
    pub(super) const STRUCT: u8 = 14;
    pub(super) const END: u8 = 15;
    pub(super) const BIG: u8 = 16;
}

impl Digest {
    fn tag(&mut self, tag: u8) {
        self.0.write_u8(tag);
    }
    fn str(&mut self, s: &str) {
        self.0.write_u64(s.len() as u64);
        self.0.write(s.as_bytes());
    }
    fn int(&mut self, wide: i128) {
        self.tag(tag::INT);
        self.0.write_u128(wide as u128);
    }
}

impl ser::Serializer for &mut Digest {
    type Ok = ();
    type Error = DigestError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), DigestError> {
        self.tag(tag::BOOL);
        self.0.write_u8(u8::from(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), DigestError> {
        self.int(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), DigestError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), DigestError> {
        // Above i128::MAX: a tag of its own, so that it never meets a negative number.
        match i128::try_from(v) {
            Ok(v) => self.int(v),
            Err(_) => {
                self.tag(tag::BIG);
                self.0.write_u128(v);
            }
        }
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), DigestError> {
        // Widened exactly, so an `f32` and the `f64` a self-describing format reads back for it
        // feed the same bytes.
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), DigestError> {
        self.tag(tag::FLOAT);
        self.0.write_u64(v.to_bits());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), DigestError> {
        self.tag(tag::CHAR);
        self.0.write_u32(v.into());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), DigestError> {
        self.tag(tag::STR);
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), DigestError> {
        self.tag(tag::BYTES);
        self.0.write_u64(v.len() as u64);
        self.0.write(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), DigestError> {
        self.tag(tag::NONE);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), DigestError> {
        self.tag(tag::SOME);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), DigestError> {
        self.tag(tag::UNIT);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), DigestError> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), DigestError> {
        self.tag(tag::VARIANT);
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), DigestError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), DigestError> {
        self.tag(tag::VARIANT);
        self.str(variant);
        self.tag(tag::NEWTYPE);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self, DigestError> {
        self.tag(tag::SEQ);
        Ok(self)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self, DigestError> {
        self.tag(tag::SEQ);
        Ok(self)
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self, DigestError> {
        self.tag(tag::SEQ);
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, DigestError> {
        self.tag(tag::VARIANT);
        self.str(variant);
        self.tag(tag::SEQ);
        Ok(self)
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self, DigestError> {
        self.tag(tag::MAP);
        Ok(self)
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self, DigestError> {
        self.tag(tag::STRUCT);
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self, DigestError> {
        self.tag(tag::VARIANT);
        self.str(variant);
        self.tag(tag::STRUCT);
        Ok(self)
    }
}

/// A compound value's parts, each digested in order, closed by the end tag: the same body for
/// every serde compound (its method names differ by kind).
macro_rules! compound {
    ($($kind:ident :: $part:ident),+ $(,)?) => {$(
        impl ser::$kind for &mut Digest {
            type Ok = ();
            type Error = DigestError;
            fn $part<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), DigestError> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), DigestError> {
                self.tag(tag::END);
                Ok(())
            }
        }
    )+};
}

compound!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
);

/// A struct's fields, each digested as its name then its value, closed by the end tag.
macro_rules! named_fields {
    ($($kind:ident),+ $(,)?) => {$(
        impl ser::$kind for &mut Digest {
            type Ok = ();
            type Error = DigestError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), DigestError> {
                self.str(key);
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<(), DigestError> {
                self.tag(tag::END);
                Ok(())
            }
        }
    )+};
}

named_fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for &mut Digest {
    type Ok = ();
    type Error = DigestError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), DigestError> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), DigestError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), DigestError> {
        self.tag(tag::END);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::digest;

    #[test]
    fn values_that_differ_digest_differently() {
        let a = digest(&(1u32, "ab", vec![2.5f32])).unwrap();
        assert_eq!(a, digest(&(1u64, "ab", vec![2.5f64])).unwrap());
        assert_ne!(a, digest(&(1u32, "a", vec![2.5f32])).unwrap());
        assert_ne!(a, digest(&(1u32, "ab", vec![2.5f32, 0.0])).unwrap());
        assert_ne!(
            digest(&(vec!["a"], vec!["b"])).unwrap(),
            digest(&(vec!["a", "b"], Vec::<&str>::new())).unwrap()
        );
        assert_ne!(digest(&Some(())).unwrap(), digest(&None::<()>).unwrap());
    }
}
