#version
